/* The typed calls: Layout from a JSON document (or the wire form) to a FitLayoutResult,
 * Measure to a FitMetrics, sync and async as GIO's convention has them (_async, _finish).
 * They make the generated proxy's calls (fit_client_call_layout, fit_client_call_measure),
 * so the reply's signature is checked by GDBusProxy against the interface XML, and their
 * errors read as the daemon wrote them (clean_error). */
#define FIT_CLIENT_COMPILATION
#include "fit-client.h"

/* A remote error mapped to a domain (FIT_ERROR, or G_DBUS_ERROR for the bus's own names)
 * loses GDBus's "GDBus.Error:NAME: " prefix, so the message is the daemon's sentence; the
 * name is the domain and code. An unmapped name (G_IO_ERROR_DBUS_ERROR) keeps it: there
 * the prefix is the only place the name is. */
static GError *
clean_error (GError *error)
{
  if (error != NULL && (error->domain == FIT_ERROR || error->domain == G_DBUS_ERROR))
    g_dbus_error_strip_remote_error (error);
  return error;
}

static gboolean
fail_with (GError *error, GError **out)
{
  g_propagate_error (out, clean_error (error));
  return FALSE;
}

/* (bdbd): a negative length is "nothing proposed" (FIT_IDEAL). NaN is sent as given, so the
 * daemon's InvalidArgument names it. */
static GVariant *
proposal (double width, double height)
{
  return g_variant_new ("(bdbd)", !(width < 0), width < 0 ? 0.0 : width, !(height < 0), height < 0 ? 0.0 : height);
}

/* NULL options are fit_client_default_options(): the toolkit this process draws with. */
static GVariant *
options_or_default (GVariant *options)
{
  return options != NULL ? g_variant_ref_sink (options) : fit_client_default_options ();
}

/* Measure's options as sent: in cells without a `terminal`, the profile of the terminal this
 * process runs in, as fitctl and the Python package send it (fit_client_terminal_profile();
 * nothing where it cannot tell). Layout has no `terminal` option (protocol/README.md). */
static GVariant *
measure_options (GVariant *options)
{
  g_autoptr (GVariant) given = options_or_default (options);
  g_autoptr (GVariant) terminal = g_variant_lookup_value (given, "terminal", NULL);
  const char *unit = NULL;
  if (terminal != NULL || !g_variant_lookup (given, "unit", "&s", &unit) || !g_str_equal (unit, "cells"))
    return g_steal_pointer (&given);
  const char *profile = fit_client_terminal_profile (NULL);
  if (profile == NULL)
    return g_steal_pointer (&given);
  GVariantDict dict;
  g_variant_dict_init (&dict, given);
  g_variant_dict_insert (&dict, "terminal", "s", profile);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static gboolean
check_options (GVariant *options)
{
  return options == NULL || g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT);
}

/**
 * fit_client_layout:
 * @client: a #FitClient
 * @nodes: the document's wire form, `a(ssia{sv})` (fit_document_from_json() makes it)
 * @width: the proposed width, or #FIT_IDEAL for none (the ideal width)
 * @height: the proposed height, or #FIT_IDEAL
 * @options: (nullable): Layout's options, an `a{sv}` (protocol/README.md, "Layout");
 *   %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * Lays a document out (Layout) and returns the result typed. A refusal is a #FIT_ERROR whose
 * message is the daemon's, without GDBus's `GDBus.Error:…: ` prefix.
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
FitLayoutResult *
fit_client_layout (FitClient *client, GVariant *nodes, double width, double height,
                   GVariant *options, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (FIT_IS_CLIENT (client), NULL);
  g_return_val_if_fail (nodes != NULL && g_variant_is_of_type (nodes, G_VARIANT_TYPE ("a(ssia{sv})")), NULL);
  g_return_val_if_fail (check_options (options), NULL);
  g_autoptr (GVariant) sent_options = options_or_default (options);
  g_autoptr (GVariant) size = NULL, frames = NULL, decisions = NULL;
  gboolean truncated;
  guint64 generation;
  GError *failure = NULL;
  if (!fit_client_call_layout_sync (client, nodes, proposal (width, height), sent_options, &size, &frames,
                                    &decisions, &truncated, &generation, cancellable, &failure))
    return fail_with (failure, error), NULL;
  return fit_layout_result_new_from_reply (size, frames, decisions, truncated, generation, error);
}

static void
layout_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) task = data;
  g_autoptr (GVariant) size = NULL, frames = NULL, decisions = NULL;
  gboolean truncated;
  guint64 generation;
  GError *error = NULL;
  if (!fit_client_call_layout_finish (FIT_CLIENT (source), &size, &frames, &decisions, &truncated,
                                      &generation, result, &error))
    {
      g_task_return_error (task, clean_error (error));
      return;
    }
  FitLayoutResult *layout = fit_layout_result_new_from_reply (size, frames, decisions, truncated, generation, &error);
  if (layout == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, layout, g_object_unref);
}

/* The call of every async layout; what each call needs to make it travels in the task's
 * data (the file variant reads the file first). */
typedef struct
{
  double width, height;
  GVariant *options;
} LayoutCall;

static void
layout_call_free (LayoutCall *call)
{
  g_clear_pointer (&call->options, g_variant_unref);
  g_free (call);
}

static GTask *
layout_task (FitClient *client, double width, double height, GVariant *options, GCancellable *cancellable,
             GAsyncReadyCallback callback, gpointer user_data, gpointer source_tag)
{
  GTask *task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  LayoutCall *call = g_new0 (LayoutCall, 1);
  call->width = width;
  call->height = height;
  call->options = options_or_default (options);
  g_task_set_task_data (task, call, (GDestroyNotify) layout_call_free);
  return task;
}

/* Takes the task. */
static void
start_layout (GTask *task, GVariant *nodes)
{
  LayoutCall *call = g_task_get_task_data (task);
  fit_client_call_layout (FIT_CLIENT (g_task_get_source_object (task)), nodes, proposal (call->width, call->height),
                          call->options, g_task_get_cancellable (task), layout_done, task);
}

static FitLayoutResult *
layout_finish (FitClient *client, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * fit_client_layout_async:
 * @client: a #FitClient
 * @nodes: the document's wire form, `a(ssia{sv})`
 * @width: the proposed width, or #FIT_IDEAL
 * @height: the proposed height, or #FIT_IDEAL
 * @options: (nullable): Layout's options, or %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the layout is ready
 * @user_data: data for @callback
 *
 * fit_client_layout() without blocking; fit_client_layout_finish() gets the result.
 */
void
fit_client_layout_async (FitClient *client, GVariant *nodes, double width, double height, GVariant *options,
                         GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (FIT_IS_CLIENT (client));
  g_return_if_fail (nodes != NULL && g_variant_is_of_type (nodes, G_VARIANT_TYPE ("a(ssia{sv})")));
  g_return_if_fail (check_options (options));
  start_layout (layout_task (client, width, height, options, cancellable, callback, user_data, fit_client_layout_async),
                nodes);
}

/**
 * fit_client_layout_finish:
 * @client: a #FitClient
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
FitLayoutResult *
fit_client_layout_finish (FitClient *client, GAsyncResult *result, GError **error)
{
  return layout_finish (client, result, fit_client_layout_async, error);
}

/**
 * fit_client_layout_json:
 * @client: a #FitClient
 * @json: a layout document in JSON, nested or flat (protocol/README.md, "Layout documents")
 * @width: the proposed width, or #FIT_IDEAL for none (the ideal width)
 * @height: the proposed height, or #FIT_IDEAL
 * @options: (nullable): Layout's options, an `a{sv}`, e.g. `{'breakpoints': <(100.0,
 *   600.0)>}`; %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * Flattens the document (fit_document_from_json()) and lays it out (fit_client_layout()).
 * A document that is not JSON or not of a document's shape is #FIT_ERROR_INVALID_DOCUMENT
 * naming the line and column or the place in the document, before any call; the daemon's
 * refusals are #FIT_ERROR errors with its message.
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
FitLayoutResult *
fit_client_layout_json (FitClient *client, const char *json, double width, double height, GVariant *options,
                        GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (FIT_IS_CLIENT (client), NULL);
  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (check_options (options), NULL);
  g_autoptr (GVariant) keep = options != NULL ? g_variant_ref_sink (options) : NULL;
  g_autoptr (GVariant) nodes = fit_document_from_json (json, error);
  if (nodes == NULL)
    return NULL;
  return fit_client_layout (client, nodes, width, height, options, cancellable, error);
}

/**
 * fit_client_layout_json_async:
 * @client: a #FitClient
 * @json: a layout document in JSON
 * @width: the proposed width, or #FIT_IDEAL
 * @height: the proposed height, or #FIT_IDEAL
 * @options: (nullable): Layout's options, or %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the layout is ready
 * @user_data: data for @callback
 *
 * fit_client_layout_json() without waiting for the daemon (the document is flattened
 * before this returns); fit_client_layout_json_finish() gets the result.
 */
void
fit_client_layout_json_async (FitClient *client, const char *json, double width, double height,
                              GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_return_if_fail (FIT_IS_CLIENT (client));
  g_return_if_fail (json != NULL);
  g_return_if_fail (check_options (options));
  GTask *task = layout_task (client, width, height, options, cancellable, callback, user_data,
                             fit_client_layout_json_async);
  GError *error = NULL;
  g_autoptr (GVariant) nodes = fit_document_from_json (json, &error);
  if (nodes == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  start_layout (task, nodes);
}

/**
 * fit_client_layout_json_finish:
 * @client: a #FitClient
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
FitLayoutResult *
fit_client_layout_json_finish (FitClient *client, GAsyncResult *result, GError **error)
{
  return layout_finish (client, result, fit_client_layout_json_async, error);
}

/**
 * fit_client_layout_file:
 * @client: a #FitClient
 * @file: a JSON file holding a layout document (the files `fitctl fit` reads)
 * @width: the proposed width, or #FIT_IDEAL
 * @height: the proposed height, or #FIT_IDEAL
 * @options: (nullable): Layout's options, or %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * fit_client_layout_json() of a file (fit_document_from_file()): messages about the
 * document begin with the file's name.
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
FitLayoutResult *
fit_client_layout_file (FitClient *client, GFile *file, double width, double height, GVariant *options,
                        GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (FIT_IS_CLIENT (client), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (check_options (options), NULL);
  g_autoptr (GVariant) keep = options != NULL ? g_variant_ref_sink (options) : NULL;
  g_autoptr (GVariant) nodes = fit_document_from_file (file, cancellable, error);
  if (nodes == NULL)
    return NULL;
  return fit_client_layout (client, nodes, width, height, options, cancellable, error);
}

/* The file is read and flattened in a worker thread (GIO's blocking I/O), then the call
 * is made from the caller's main context. */
static void
read_document (GTask *task, gpointer source G_GNUC_UNUSED, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  GVariant *nodes = fit_document_from_file (G_FILE (data), cancellable, &error);
  if (nodes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, nodes, (GDestroyNotify) g_variant_unref);
}

static void
document_read (GObject *source G_GNUC_UNUSED, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  GError *error = NULL;
  g_autoptr (GVariant) nodes = g_task_propagate_pointer (G_TASK (result), &error);
  if (nodes == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  start_layout (task, nodes);
}

/**
 * fit_client_layout_file_async:
 * @client: a #FitClient
 * @file: a JSON file holding a layout document
 * @width: the proposed width, or #FIT_IDEAL
 * @height: the proposed height, or #FIT_IDEAL
 * @options: (nullable): Layout's options, or %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the layout is ready
 * @user_data: data for @callback
 *
 * fit_client_layout_file() without blocking (the file is read in a worker thread);
 * fit_client_layout_file_finish() gets the result.
 */
void
fit_client_layout_file_async (FitClient *client, GFile *file, double width, double height, GVariant *options,
                              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (FIT_IS_CLIENT (client));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (check_options (options));
  GTask *task = layout_task (client, width, height, options, cancellable, callback, user_data,
                             fit_client_layout_file_async);
  g_autoptr (GTask) reading = g_task_new (NULL, cancellable, document_read, task);
  g_task_set_task_data (reading, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (reading, read_document);
}

/**
 * fit_client_layout_file_finish:
 * @client: a #FitClient
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
FitLayoutResult *
fit_client_layout_file_finish (FitClient *client, GAsyncResult *result, GError **error)
{
  return layout_finish (client, result, fit_client_layout_file_async, error);
}

/**
 * fit_client_measure:
 * @client: a #FitClient
 * @text: the text
 * @font: a Pango font description or a text style ("body"); "" for the UI font
 * @options: (nullable): Measure's options, an `a{sv}` (protocol/README.md, "Measure
 *   options"); %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * Measures a text (Measure) and returns the metrics typed; errors as fit_client_layout()'s.
 * With `unit` `cells` and no `terminal` option, the options get the profile of the
 * terminal this process runs in (fit_client_terminal_profile()), as fitctl sends it.
 *
 * Returns: (transfer full): the metrics, or %NULL with @error set
 */
FitMetrics *
fit_client_measure (FitClient *client, const char *text, const char *font, GVariant *options,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (FIT_IS_CLIENT (client), NULL);
  g_return_val_if_fail (text != NULL && font != NULL, NULL);
  g_return_val_if_fail (check_options (options), NULL);
  g_autoptr (GVariant) sent_options = measure_options (options);
  g_autoptr (GVariant) metrics = NULL;
  GError *failure = NULL;
  if (!fit_client_call_measure_sync (client, text, font, sent_options, &metrics, cancellable, &failure))
    return fail_with (failure, error), NULL;
  return fit_metrics_new_from_reply (metrics, error);
}

static void
measure_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) task = data;
  g_autoptr (GVariant) reply = NULL;
  GError *error = NULL;
  if (!fit_client_call_measure_finish (FIT_CLIENT (source), &reply, result, &error))
    {
      g_task_return_error (task, clean_error (error));
      return;
    }
  FitMetrics *metrics = fit_metrics_new_from_reply (reply, &error);
  if (metrics == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, metrics, g_object_unref);
}

/**
 * fit_client_measure_async:
 * @client: a #FitClient
 * @text: the text
 * @font: a Pango font description or a text style; "" for the UI font
 * @options: (nullable): Measure's options, or %NULL for fit_client_default_options()
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the metrics are ready
 * @user_data: data for @callback
 *
 * fit_client_measure() without blocking; fit_client_measure_finish() gets the result.
 */
void
fit_client_measure_async (FitClient *client, const char *text, const char *font, GVariant *options,
                          GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (FIT_IS_CLIENT (client));
  g_return_if_fail (text != NULL && font != NULL);
  g_return_if_fail (check_options (options));
  GTask *task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, fit_client_measure_async);
  g_autoptr (GVariant) sent_options = measure_options (options);
  fit_client_call_measure (client, text, font, sent_options, cancellable, measure_done, task);
}

/**
 * fit_client_measure_finish:
 * @client: a #FitClient
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the metrics, or %NULL with @error set
 */
FitMetrics *
fit_client_measure_finish (FitClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == fit_client_measure_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
