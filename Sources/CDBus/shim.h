#ifndef FIT_CDBUS_SHIM_H
#define FIT_CDBUS_SHIM_H
#include <dbus/dbus.h>

// FitBus uses only libdbus's iterator API (dbus_message_iter_*), never the variadic
// dbus_message_append_args / dbus_message_get_args, which Swift cannot call.
//
// The type codes are macros with a cast (`#define DBUS_TYPE_INT32 ((int) 'i')`), which the
// Swift importer skips; these constants re-export them so Swift spells the libdbus names.
// Values: D-Bus specification, "Type system" table.
static const int fit_dbus_type_invalid = DBUS_TYPE_INVALID;
static const int fit_dbus_type_byte = DBUS_TYPE_BYTE;
static const int fit_dbus_type_boolean = DBUS_TYPE_BOOLEAN;
static const int fit_dbus_type_int16 = DBUS_TYPE_INT16;
static const int fit_dbus_type_uint16 = DBUS_TYPE_UINT16;
static const int fit_dbus_type_int32 = DBUS_TYPE_INT32;
static const int fit_dbus_type_uint32 = DBUS_TYPE_UINT32;
static const int fit_dbus_type_int64 = DBUS_TYPE_INT64;
static const int fit_dbus_type_uint64 = DBUS_TYPE_UINT64;
static const int fit_dbus_type_double = DBUS_TYPE_DOUBLE;
static const int fit_dbus_type_string = DBUS_TYPE_STRING;
static const int fit_dbus_type_object_path = DBUS_TYPE_OBJECT_PATH;
static const int fit_dbus_type_signature = DBUS_TYPE_SIGNATURE;
static const int fit_dbus_type_unix_fd = DBUS_TYPE_UNIX_FD;
static const int fit_dbus_type_array = DBUS_TYPE_ARRAY;
static const int fit_dbus_type_variant = DBUS_TYPE_VARIANT;
static const int fit_dbus_type_struct = DBUS_TYPE_STRUCT;
static const int fit_dbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;

// The bytes an array's elements take on the wire, without walking them: what a fast path
// needs to know before it copies a message (FitBus, DBusReplyCache). libdbus marks the call
// deprecated because its old name suggested an element count; the byte count is what it
// returns (dbus-message.c, dbus_message_iter_get_array_len).
static inline int fit_dbus_message_iter_array_bytes(DBusMessageIter *iter) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return dbus_message_iter_get_array_len(iter);
#pragma GCC diagnostic pop
}

#endif
