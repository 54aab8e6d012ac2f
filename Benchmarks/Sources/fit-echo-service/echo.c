/*
 * The cheapest possible D-Bus service: org.fitd.Echo1 at /org/fitd/Echo1, one method
 * Echo(s) -> s that returns its argument. It is the floor a D-Bus round trip costs on this
 * machine, against which fitd's Measure and Layout round trips are compared (issue: "single
 * cached request p50 within 1.2x the echo's p50"). Plain libdbus, one thread, blocking
 * dispatch: nothing a real service could do with less.
 *
 * Reflect(...) -> ... returns whatever arguments it gets, copied value by value: the floor for
 * a call whose messages have the size and shape of a Layout call (a 50-node document each
 * way), which costs more than Echo(s) in every process that validates or copies them.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies the values from `in` to `out`, containers recursively. */
static dbus_bool_t copy_values(DBusMessageIter *in, DBusMessageIter *out) {
    for (int type; (type = dbus_message_iter_get_arg_type(in)) != DBUS_TYPE_INVALID; dbus_message_iter_next(in)) {
        if (dbus_type_is_basic(type)) {
            DBusBasicValue value;
            dbus_message_iter_get_basic(in, &value);
            if (!dbus_message_iter_append_basic(out, type, &value)) return FALSE;
            continue;
        }
        DBusMessageIter in_sub, out_sub;
        dbus_message_iter_recurse(in, &in_sub);
        char *contained = NULL;
        if (type == DBUS_TYPE_ARRAY || type == DBUS_TYPE_VARIANT) {
            /* An array's element signature is its own signature without the leading 'a'. */
            char *whole = dbus_message_iter_get_signature(type == DBUS_TYPE_ARRAY ? in : &in_sub);
            if (whole == NULL) return FALSE;
            contained = strdup(type == DBUS_TYPE_ARRAY ? whole + 1 : whole);
            dbus_free(whole);
        }
        dbus_bool_t ok = dbus_message_iter_open_container(out, type, contained, &out_sub) &&
            copy_values(&in_sub, &out_sub) && dbus_message_iter_close_container(out, &out_sub);
        free(contained);
        if (!ok) return FALSE;
    }
    return TRUE;
}

static DBusHandlerResult handle(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (dbus_message_is_method_call(message, "org.fitd.Echo1", "Reflect")) {
        DBusMessage *reply = dbus_message_new_method_return(message);
        DBusMessageIter in, out;
        dbus_message_iter_init_append(reply, &out);
        if (dbus_message_iter_init(message, &in) && !copy_values(&in, &out)) {
            dbus_message_unref(reply);
            reply = dbus_message_new_error(message, DBUS_ERROR_NO_MEMORY, "Reflect ran out of memory");
        }
        dbus_connection_send(connection, reply, NULL);
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (!dbus_message_is_method_call(message, "org.fitd.Echo1", "Echo"))
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char *text = NULL;
    DBusMessage *reply;
    if (dbus_message_get_args(message, NULL, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID)) {
        reply = dbus_message_new_method_return(message);
        dbus_message_append_args(reply, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    } else {
        reply = dbus_message_new_error(message, DBUS_ERROR_INVALID_ARGS, "Echo takes (s)");
    }
    dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_bus_get(DBUS_BUS_SESSION, &error);
    if (connection == NULL) {
        fprintf(stderr, "fit-echo-service: %s\n", error.message);
        return 1;
    }
    static const DBusObjectPathVTable vtable = {.message_function = handle};
    if (!dbus_connection_register_object_path(connection, "/org/fitd/Echo1", &vtable, NULL)) return 1;
    int owner = dbus_bus_request_name(connection, "org.fitd.Echo1", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (owner != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "fit-echo-service: cannot own org.fitd.Echo1\n");
        return 1;
    }
    while (dbus_connection_read_write_dispatch(connection, -1)) {
    }
    return 0;
}
