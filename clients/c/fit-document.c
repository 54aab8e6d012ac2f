/* Layout documents from JSON: the nested or flat JSON form (protocol/README.md, "Layout
 * documents, kind by kind"; protocol/layout-document.schema.json) as Layout's wire form
 * a(ssia{sv}), by the rules of the Swift reader (Sources/FitLayout/LayoutDocument.swift:
 * NestedNode, NodeObject, decodeProperties, LayoutDocument.flatten), which `fitctl fit
 * --flatten` prints and clients/python's flatten_document follows:
 *
 *  - nested: nodes in tree order (a node, then its children's subtrees in order); a node
 *    without an id is "#<its index>", the root "root"; an id given that begins with "#" is
 *    refused; no "parent"; at most LayoutLimits.maxDepth levels and maxNodes nodes;
 *  - flat: every node has a string "id", no "children"; "parent" is null, an id (the first
 *    node with it) or an index (>= 0);
 *  - top level: only version (1), description, and nodes or root, not both;
 *  - properties: every other key; a string is s, every number d (integers too, as the Swift
 *    codec sends them), a boolean b, an array of strings as; a forEach's data written as
 *    objects (field -> string) becomes fields (the names, sorted) and the flat data, a
 *    missing value "".
 *
 * The JSON is outside input. Its size is capped and its syntax checked strictly, as fitctl
 * checks it, before json-glib builds the tree (fit-json.c: json-glib is lenient, and
 * recurses once per level); syntax errors name the line and column, and a document of the
 * wrong shape names the place in it
 * (`root.children[2].text`). */
#define FIT_CLIENT_COMPILATION
#include "fit-private.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* LayoutLimits (Sources/FitLayout): the daemon refuses more anyway; checked here so that a
 * huge or deep document costs no more than its parse. */
#define MAX_NODES 10000
#define MAX_DEPTH FIT_MAX_DEPTH
#define MAX_FOREACH_FIELDS 64
/* fitctl's DocumentInput: more than any document fitctl may send. */
#define MAX_BYTES (64 << 20)

static gboolean G_GNUC_PRINTF (3, 4)
bad (GError **error, const char *place, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *reason = g_strdup_vprintf (format, args);
  va_end (args);
  /* "root.children[1].text is a number; …" reads as a sentence; other reasons follow a colon. */
  const char *separator = *place == '\0' ? "" : g_str_has_prefix (reason, "is ") ? " " : ": ";
  g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, "%s%s%s", place, separator, reason);
  return FALSE;
}

typedef struct
{
  guint line, column;
  gboolean seen;
} ParseFailure;

/* JsonParser::error: the position is defined only while the signal runs
 * (json_parser_get_current_line's documentation). */
static void
on_parse_error (JsonParser *parser, const GError *error G_GNUC_UNUSED, gpointer data)
{
  ParseFailure *failure = data;
  failure->line = json_parser_get_current_line (parser);
  failure->column = json_parser_get_current_pos (parser);
  failure->seen = TRUE;
}

static JsonNode *
parse (const char *json, gssize length, GError **error)
{
  gsize size = length < 0 ? strlen (json) : (gsize) length;
  if (size > MAX_BYTES)
    {
      g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT,
                   "more than %d MiB; not a layout document", MAX_BYTES >> 20);
      return NULL;
    }
  /* Strict JSON first, as fitctl checks it (fit-json.c): json-glib takes more, and
   * recurses once per level. */
  if (!fit_json_check (json, size, error))
    return NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  ParseFailure failure = { 0, 0, FALSE };
  g_signal_connect (parser, "error", G_CALLBACK (on_parse_error), &failure);
  g_autoptr (GError) parse_error = NULL;
  if (!json_parser_load_from_data (parser, json, (gssize) size, &parse_error))
    {
      /* Not expected after fit_json_check(); kept so that json-glib's refusal still reads
       * well. Its own message starts "<data>:LINE:COLUMN: Parse error: ": the reason is what
       * follows; the position is said once, in this library's words. */
      const char *reason = parse_error->message;
      const char *after = strstr (reason, "Parse error: ");
      if (after != NULL)
        reason = after + strlen ("Parse error: ");
      if (failure.seen)
        g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, "line %u, column %u: %s",
                     failure.line, failure.column, reason);
      else
        g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, "not JSON: %s", parse_error->message);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, "line 1, column 1: empty; a layout document is a JSON object");
      return NULL;
    }
  return json_node_ref (root);
}

static const char *
json_type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      break;
    }
  GType type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return "a string";
  if (type == G_TYPE_BOOLEAN)
    return "a boolean";
  return "a number";
}

static gboolean
is_type (JsonNode *node, GType type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
is_number (JsonNode *node)
{
  return is_type (node, G_TYPE_INT64) || is_type (node, G_TYPE_DOUBLE);
}

static gboolean
is_string_array (JsonNode *node)
{
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  JsonArray *array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!is_type (json_array_get_element (array, i), G_TYPE_STRING))
      return FALSE;
  return TRUE;
}

static GVariant *
string_array (JsonArray *array)
{
  GVariantBuilder builder;
  g_variant_builder_init (&builder, G_VARIANT_TYPE_STRING_ARRAY);
  for (guint i = 0; i < json_array_get_length (array); i++)
    g_variant_builder_add (&builder, "s", json_array_get_string_element (array, i));
  return g_variant_builder_end (&builder);
}

/* UTF-8 byte order is code point order, which is Swift's order of Strings in NFC (JSON
 * field names are, in practice). */
static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* A forEach's data written as rows of objects (decodeProperties): every row an object whose
 * values are strings; fields are the distinct names, sorted (byte order, as Swift sorts
 * Strings of ASCII names; the schema's field names are identifiers), at most
 * MAX_FOREACH_FIELDS, counted before the rows x fields table is built. */
static gboolean
object_rows (JsonArray *rows, const char *place, GVariant **fields_out, GVariant **data_out, GError **error)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_rows = json_array_get_length (rows);
  for (guint r = 0; r < n_rows; r++)
    {
      JsonNode *row = json_array_get_element (rows, r);
      if (!JSON_NODE_HOLDS_OBJECT (row))
        {
          g_autofree char *where = g_strdup_printf ("%s.data[%u]", place, r);
          return bad (error, where, "is %s; a forEach's data is an array of strings, or of objects (one per row)",
                      json_type_name (row));
        }
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;
      json_object_iter_init (&iter, json_node_get_object (row));
      while (json_object_iter_next (&iter, &name, &value))
        {
          if (!is_type (value, G_TYPE_STRING))
            {
              g_autofree char *where = g_strdup_printf ("%s.data[%u].%s", place, r, name);
              return bad (error, where, "is %s; a row's values are strings", json_type_name (value));
            }
          g_hash_table_add (names, (gpointer) name);
          if (g_hash_table_size (names) > MAX_FOREACH_FIELDS)
            return bad (error, place, "the rows of \"data\" name more than %d distinct fields (LayoutLimits.maxForEachFields)",
                        MAX_FOREACH_FIELDS);
        }
    }
  guint n_fields;
  g_autofree const char **sorted = (const char **) g_hash_table_get_keys_as_array (names, &n_fields);
  qsort (sorted, n_fields, sizeof *sorted, compare_names);
  *fields_out = g_variant_new_strv (sorted, n_fields);
  GVariantBuilder data;
  g_variant_builder_init (&data, G_VARIANT_TYPE_STRING_ARRAY);
  for (guint r = 0; r < n_rows; r++)
    {
      JsonObject *row = json_array_get_object_element (rows, r);
      for (guint f = 0; f < n_fields; f++)
        {
          JsonNode *value = json_object_get_member (row, sorted[f]);
          g_variant_builder_add (&data, "s", value != NULL ? json_node_get_string (value) : "");
        }
    }
  *data_out = g_variant_builder_end (&data);
  return TRUE;
}

/* A node's properties as a{sv}: every member but the structural ones (`skip`). */
static GVariant *
properties (JsonObject *node, const char *const *skip, const char *place, GError **error)
{
  GVariantDict dict;
  g_variant_dict_init (&dict, NULL);
  GVariant *rows_fields = NULL, *rows_data = NULL;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  json_object_iter_init (&iter, node);
  while (json_object_iter_next (&iter, &key, &value))
    {
      if (g_strv_contains (skip, key))
        continue;
      if (is_type (value, G_TYPE_STRING))
        g_variant_dict_insert (&dict, key, "s", json_node_get_string (value));
      else if (is_type (value, G_TYPE_BOOLEAN))
        g_variant_dict_insert (&dict, key, "b", json_node_get_boolean (value));
      else if (is_number (value))
        g_variant_dict_insert (&dict, key, "d", json_node_get_double (value));
      else if (is_string_array (value))
        g_variant_dict_insert_value (&dict, key, string_array (json_node_get_array (value)));
      else if (g_str_equal (key, "data") && JSON_NODE_HOLDS_ARRAY (value))
        {
          if (!object_rows (json_node_get_array (value), place, &rows_fields, &rows_data, error))
            {
              g_variant_dict_clear (&dict);
              return NULL;
            }
        }
      else
        {
          /* An array names its first element that is not a string. */
          g_autofree char *where = g_strdup_printf ("%s.%s", place, key);
          JsonNode *culprit = value;
          if (JSON_NODE_HOLDS_ARRAY (value))
            {
              JsonArray *array = json_node_get_array (value);
              for (guint i = 0; i < json_array_get_length (array); i++)
                if (!is_type (json_array_get_element (array, i), G_TYPE_STRING))
                  {
                    culprit = json_array_get_element (array, i);
                    g_free (where);
                    where = g_strdup_printf ("%s.%s[%u]", place, key, i);
                    break;
                  }
            }
          if (culprit != value)
            bad (error, where, "is %s; an array property holds strings only", json_type_name (culprit));
          else
            bad (error, where, "is %s; a property is a string, number, boolean or array of strings", json_type_name (value));
          g_variant_dict_clear (&dict);
          return NULL;
        }
    }
  /* Set last, so that the rows' fields win over a "fields" the node also gives. */
  if (rows_fields != NULL)
    {
      g_variant_dict_insert_value (&dict, "fields", rows_fields);
      g_variant_dict_insert_value (&dict, "data", rows_data);
    }
  return g_variant_dict_end (&dict);
}

static const char *
string_member (JsonObject *object, const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  return node != NULL && is_type (node, G_TYPE_STRING) ? json_node_get_string (node) : NULL;
}

/* --- the nested form -------------------------------------------------------------------- */

/* Where a node of the nested form is, for messages: its parent's flat index and its position
 * among the parent's children, from which its path is built (for each node: at most 10,000
 * paths of at most 128 steps, about 0.1 s for the largest document). */
typedef struct
{
  int parent;
  guint position;
} Place;

static char *
nested_place (GArray *places, int index)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  for (int at = index; at >= 0; at = g_array_index (places, Place, at).parent)
    {
      Place place = g_array_index (places, Place, at);
      if (place.parent < 0)
        break;
      g_ptr_array_add (parts, g_strdup_printf (".children[%u]", place.position));
    }
  GString *path = g_string_new ("root");
  for (guint i = parts->len; i > 0; i--)
    g_string_append (path, g_ptr_array_index (parts, i - 1));
  g_ptr_array_unref (parts);
  return g_string_free (path, FALSE);
}

typedef struct
{
  JsonNode *node;
  int parent;
  guint position, depth;
} Pending;

static GVariant *
flatten_nested (JsonNode *root, GError **error)
{
  static const char *const skip[] = { "id", "kind", "children", NULL };
  GVariantBuilder nodes;
  g_variant_builder_init (&nodes, G_VARIANT_TYPE ("a(ssia{sv})"));
  g_autoptr (GArray) places = g_array_new (FALSE, FALSE, sizeof (Place));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Pending));
  Pending first = { root, -1, 0, 0 };
  g_array_append_val (stack, first);
  /* Iterative, in the Swift reader's order: pop the last, push the children reversed. */
  while (stack->len > 0)
    {
      Pending pending = g_array_index (stack, Pending, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
      int index = (int) places->len;
      Place place = { pending.parent, pending.position };
      g_array_append_val (places, place);
      g_autofree char *where = nested_place (places, index);
      if (index >= MAX_NODES)
        {
          bad (error, where, "more than %d nodes (LayoutLimits.maxNodes)", MAX_NODES);
          goto fail;
        }
      if (pending.depth > MAX_DEPTH)
        {
          bad (error, where, "nodes are nested more than %d levels below the root (LayoutLimits.maxDepth)", MAX_DEPTH);
          goto fail;
        }
      if (!JSON_NODE_HOLDS_OBJECT (pending.node))
        {
          bad (error, where, "is %s; a node is an object", json_type_name (pending.node));
          goto fail;
        }
      JsonObject *object = json_node_get_object (pending.node);
      const char *kind = string_member (object, "kind");
      if (kind == NULL)
        {
          bad (error, where, "a node needs a string \"kind\"");
          goto fail;
        }
      g_autofree char *generated = NULL;
      const char *id;
      if (json_object_has_member (object, "id"))
        {
          id = string_member (object, "id");
          if (id == NULL)
            {
              bad (error, where, "\"id\" is %s, not a string", json_type_name (json_object_get_member (object, "id")));
              goto fail;
            }
          if (id[0] == '#')
            {
              bad (error, where, "id \"%s\": ids beginning with \"#\" are reserved for the ids the nested form gives nodes without one", id);
              goto fail;
            }
        }
      else
        id = generated = pending.parent < 0 ? g_strdup ("root") : g_strdup_printf ("#%d", index);
      if (json_object_has_member (object, "parent"))
        {
          bad (error, where, "names a parent; in the nested form its place says it");
          goto fail;
        }
      GVariant *props = properties (object, skip, where, error);
      if (props == NULL)
        goto fail;
      g_variant_builder_add (&nodes, "(ssi@a{sv})", id, kind, pending.parent, props);
      JsonNode *children = json_object_get_member (object, "children");
      if (children == NULL)
        continue;
      if (!JSON_NODE_HOLDS_ARRAY (children))
        {
          bad (error, where, "\"children\" is %s, not an array", json_type_name (children));
          goto fail;
        }
      JsonArray *list = json_node_get_array (children);
      guint n = json_array_get_length (list);
      if (n > MAX_NODES)
        {
          bad (error, where, "%u children; a document has at most %d nodes (LayoutLimits.maxNodes)", n, MAX_NODES);
          goto fail;
        }
      for (guint i = n; i > 0; i--)
        {
          Pending child = { json_array_get_element (list, i - 1), index, i - 1, pending.depth + 1 };
          g_array_append_val (stack, child);
        }
    }
  return g_variant_builder_end (&nodes);
fail:
  g_variant_builder_clear (&nodes);
  return NULL;
}

/* --- the flat form ---------------------------------------------------------------------- */

static GVariant *
flatten_flat (JsonNode *list, GError **error)
{
  static const char *const skip[] = { "id", "kind", "parent", NULL };
  if (!JSON_NODE_HOLDS_ARRAY (list))
    {
      bad (error, "nodes", "is %s, not an array", json_type_name (list));
      return NULL;
    }
  JsonArray *array = json_node_get_array (list);
  guint n = json_array_get_length (array);
  if (n > MAX_NODES)
    {
      bad (error, "nodes", "%u nodes; at most %d (LayoutLimits.maxNodes)", n, MAX_NODES);
      return NULL;
    }
  /* Parents named by id are the first node with that id (LayoutCodec.parentIndices). */
  g_autoptr (GHashTable) index_of = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *where = g_strdup_printf ("nodes[%u]", i);
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          bad (error, where, "is %s; a node is an object", json_type_name (node));
          return NULL;
        }
      const char *id = string_member (json_node_get_object (node), "id");
      if (id == NULL)
        {
          bad (error, where, "every node of the flat form needs a string \"id\"");
          return NULL;
        }
      if (!g_hash_table_contains (index_of, id))
        g_hash_table_insert (index_of, (gpointer) id, GUINT_TO_POINTER (i));
    }
  GVariantBuilder nodes;
  g_variant_builder_init (&nodes, G_VARIANT_TYPE ("a(ssia{sv})"));
  for (guint i = 0; i < n; i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);
      g_autofree char *where = g_strdup_printf ("nodes[%u]", i);
      const char *kind = string_member (object, "kind");
      if (kind == NULL)
        {
          bad (error, where, "a node needs a string \"kind\"");
          goto fail;
        }
      if (json_object_has_member (object, "children"))
        {
          bad (error, where, "children are for the nested form (a document with root, not nodes)");
          goto fail;
        }
      int parent = -1;
      JsonNode *named = json_object_get_member (object, "parent");
      if (named != NULL && !JSON_NODE_HOLDS_NULL (named))
        {
          if (is_type (named, G_TYPE_STRING))
            {
              gpointer found;
              if (!g_hash_table_lookup_extended (index_of, json_node_get_string (named), NULL, &found))
                {
                  bad (error, where, "parent \"%s\" is not a node's id", json_node_get_string (named));
                  goto fail;
                }
              parent = (int) GPOINTER_TO_UINT (found);
            }
          else if (is_type (named, G_TYPE_INT64))
            {
              gint64 position = json_node_get_int (named);
              /* Its range among the nodes is the daemon's to check, as for any document. */
              if (position < 0 || position > G_MAXINT32)
                {
                  bad (error, where, "parent index %" G_GINT64_FORMAT " is not a node's", position);
                  goto fail;
                }
              parent = (int) position;
            }
          else
            {
              bad (error, where, "\"parent\" is %s; it is an id (string) or an index (integer)", json_type_name (named));
              goto fail;
            }
        }
      GVariant *props = properties (object, skip, where, error);
      if (props == NULL)
        goto fail;
      g_variant_builder_add (&nodes, "(ssi@a{sv})", string_member (object, "id"), kind, parent, props);
    }
  return g_variant_builder_end (&nodes);
fail:
  g_variant_builder_clear (&nodes);
  return NULL;
}

static GVariant *
flatten (JsonNode *document, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (document))
    {
      bad (error, "", "the document is %s; a layout document is a JSON object", json_type_name (document));
      return NULL;
    }
  JsonObject *object = json_node_get_object (document);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &key, &value))
    if (!g_str_equal (key, "version") && !g_str_equal (key, "description") && !g_str_equal (key, "nodes")
        && !g_str_equal (key, "root"))
      {
        bad (error, key, "unknown top-level key; a document has version, description and nodes (or root)");
        return NULL;
      }
  JsonNode *version = json_object_get_member (object, "version");
  if (version != NULL && !JSON_NODE_HOLDS_NULL (version) && !(is_type (version, G_TYPE_INT64) && json_node_get_int (version) == 1))
    {
      bad (error, "version", "is not 1; this client reads version 1");
      return NULL;
    }
  JsonNode *description = json_object_get_member (object, "description");
  if (description != NULL && !JSON_NODE_HOLDS_NULL (description) && !is_type (description, G_TYPE_STRING))
    {
      bad (error, "description", "is %s, not a string", json_type_name (description));
      return NULL;
    }
  JsonNode *root = json_object_get_member (object, "root");
  JsonNode *nodes = json_object_get_member (object, "nodes");
  if ((root != NULL) == (nodes != NULL))
    {
      bad (error, "", "give nodes (the flat form) or root (the nested form)%s", root != NULL ? ", not both" : "");
      return NULL;
    }
  return root != NULL ? flatten_nested (root, error) : flatten_flat (nodes, error);
}

static GVariant *document_from_bytes (const char *json, gssize length, GError **error);

/**
 * fit_document_from_json:
 * @json: a layout document in JSON, nested (`root`, each node's `children` inside it) or
 *   flat (`nodes`, each naming its `parent`)
 * @error: return location for a #GError
 *
 * The document as Layout's first argument, `a(ssia{sv})`, flattened as `fitctl fit
 * --flatten` and the Python client flatten it (protocol/README.md, "Layout documents, kind
 * by kind"): nodes in tree order, a node without an id named `#<its index>` (the root
 * `root`), every number a `d`, arrays of strings `as`, a forEach's rows written as objects
 * turned into `fields` and `data`.
 *
 * Errors are #FIT_ERROR_INVALID_DOCUMENT: JSON that does not parse names the line and
 * column ("line 3, column 5: …"), a document of the wrong shape the place in it
 * ("root.children[1].templates[0] is a number; …").
 *
 * Returns: (transfer full): an `a(ssia{sv})` #GVariant, or %NULL with @error set
 */
GVariant *
fit_document_from_json (const char *json, GError **error)
{
  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return document_from_bytes (json, -1, error);
}

static GVariant *
document_from_bytes (const char *json, gssize length, GError **error)
{
  g_autoptr (JsonNode) document = parse (json, length, error);
  if (document == NULL)
    return NULL;
  GVariant *nodes = flatten (document, error);
  return nodes != NULL ? g_variant_ref_sink (nodes) : NULL;
}

/**
 * fit_document_from_file:
 * @file: a JSON file holding a layout document
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * fit_document_from_json() of a file's contents, read up to the size no layout document
 * reaches (64 MiB, as fitctl reads them). Messages begin with the file's name.
 *
 * Returns: (transfer full): an `a(ssia{sv})` #GVariant, or %NULL with @error set (a
 *   #G_IO_ERROR when the file cannot be read)
 */
GVariant *
fit_document_from_file (GFile *file, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_autofree char *name = g_file_get_parse_name (file);
  g_autoptr (GFileInputStream) stream = g_file_read (file, cancellable, error);
  if (stream == NULL)
    return NULL;
  /* Read to one byte past the limit: a longer file is refused without being held whole. */
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  guint8 chunk[64 * 1024];
  for (;;)
    {
      gssize got = g_input_stream_read (G_INPUT_STREAM (stream), chunk, sizeof chunk, cancellable, error);
      if (got < 0)
        return NULL;
      if (got == 0)
        break;
      g_byte_array_append (bytes, chunk, (guint) got);
      if (bytes->len > MAX_BYTES)
        {
          g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, "%s: more than %d MiB; not a layout document",
                       name, MAX_BYTES >> 20);
          return NULL;
        }
    }
  g_autoptr (GError) failure = NULL;
  GVariant *nodes = document_from_bytes (bytes->len > 0 ? (const char *) bytes->data : "", bytes->len, &failure);
  if (nodes == NULL)
    {
      g_set_error (error, failure->domain, failure->code, "%s: %s", name, failure->message);
      return NULL;
    }
  return nodes;
}
