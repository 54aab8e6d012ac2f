/* Strict JSON syntax, checked before json-glib builds the tree: json-glib 1.6's parser is
 * lenient (it takes comments, single quotes, leading zeros and text after the value, and
 * turns a number past double's range into infinity), and recurses once per level of nesting.
 * fitctl checks a document with its own reader (Sources/FitJSON/JSONReader.swift, from
 * Sources/fitctl/DocumentInput.swift) before decoding it; this is the same grammar (RFC 8259),
 * the same bounds and the same words, so that the C library takes exactly the documents
 * fitctl takes and says what is wrong as fitctl says it, at the same line and column:
 *
 *  - nesting at most MAX_JSON_DEPTH (fitctl's DocumentInput.depthLimit);
 *  - numbers -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? within double's range;
 *  - strings without control characters, with only JSON's escapes and no lone surrogate;
 *  - a member name at most once in an object (compared as written: "a" and "\u0061" are not
 *    seen as one, where fitctl decodes them first);
 *  - nothing but white space after the value;
 *  - UTF-8 (RFC 8259 §8.1), where fitctl's reader would repair ill-formed bytes to U+FFFD:
 *    refused here, since GVariant strings must be UTF-8 and a repaired text is not the
 *    author's. */
#define FIT_CLIENT_COMPILATION
#include "fit-private.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const guchar *bytes;
  gsize length, index;
  guint depth;
  gsize failed_at;
  char *reason;
} Reader;

static gboolean G_GNUC_PRINTF (3, 4)
fail_at (Reader *r, gsize offset, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  r->reason = g_strdup_vprintf (format, args);
  va_end (args);
  r->failed_at = offset;
  return FALSE;
}

/* What is at the reader's place, as fitctl's describeHere names it. */
static gboolean
expected (Reader *r, const char *what)
{
  if (r->index >= r->length)
    return fail_at (r, r->index, "expected %s, found end of text", what);
  guchar byte = r->bytes[r->index];
  if (byte >= 0x21 && byte < 0x7F)
    return fail_at (r, r->index, "expected %s, found '%c'", what, byte);
  return fail_at (r, r->index, "expected %s, found byte 0x%02X", what, byte);
}

static void
skip_space (Reader *r)
{
  while (r->index < r->length)
    {
      guchar byte = r->bytes[r->index];
      if (byte != ' ' && byte != '\t' && byte != '\n' && byte != '\r')
        return;
      r->index++;
    }
}

static gboolean
literal (Reader *r, const char *word)
{
  gsize n = strlen (word);
  if (r->length - r->index < n || memcmp (r->bytes + r->index, word, n) != 0)
    return fail_at (r, r->index, "expected %s", word);
  r->index += n;
  return TRUE;
}

static gsize
digits (Reader *r)
{
  gsize from = r->index;
  while (r->index < r->length && g_ascii_isdigit (r->bytes[r->index]))
    r->index++;
  return r->index - from;
}

static gboolean
number (Reader *r)
{
  gsize start = r->index;
  if (r->bytes[r->index] == '-')
    r->index++;
  if (r->index >= r->length || !g_ascii_isdigit (r->bytes[r->index]))
    return expected (r, "a digit");
  if (r->bytes[r->index] == '0')
    {
      r->index++;
      if (r->index < r->length && g_ascii_isdigit (r->bytes[r->index]))
        return fail_at (r, start, "a number with a leading zero");
    }
  else
    digits (r);
  if (r->index < r->length && r->bytes[r->index] == '.')
    {
      r->index++;
      if (digits (r) == 0)
        return expected (r, "a digit after '.'");
    }
  if (r->index < r->length && (r->bytes[r->index] | 0x20) == 'e')
    {
      r->index++;
      if (r->index < r->length && (r->bytes[r->index] == '+' || r->bytes[r->index] == '-'))
        r->index++;
      if (digits (r) == 0)
        return expected (r, "a digit in the exponent");
    }
  g_autofree char *text = g_strndup ((const char *) r->bytes + start, r->index - start);
  if (!isfinite (g_ascii_strtod (text, NULL)))
    {
      /* Its first digits name it; a 6 MiB number would make a 6 MiB message. */
      gsize n = strlen (text);
      if (n <= 40)
        return fail_at (r, start, "the number %s is out of range", text);
      return fail_at (r, start, "the number %.32s… (%" G_GSIZE_FORMAT " characters) is out of range", text, n);
    }
  return TRUE;
}

static gboolean
hex4 (Reader *r, gsize escape, guint *value)
{
  if (r->length - r->index < 4)
    return fail_at (r, escape, "a \\u escape without four hex digits");
  *value = 0;
  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (r->bytes[r->index + i]);
      if (digit < 0)
        return fail_at (r, escape, "a \\u escape without four hex digits");
      *value = *value * 16 + (guint) digit;
    }
  r->index += 4;
  return TRUE;
}

/* A string from its opening quote; *escaped says whether it held an escape. */
static gboolean
string (Reader *r, gboolean *escaped)
{
  gsize start = r->index;
  r->index++;
  *escaped = FALSE;
  while (r->index < r->length)
    {
      guchar byte = r->bytes[r->index];
      if (byte == '"')
        {
          r->index++;
          return TRUE;
        }
      if (byte < 0x20)
        return fail_at (r, r->index, "an unescaped control character (0x%X) in a string", byte);
      if (byte != '\\')
        {
          r->index++;
          continue;
        }
      *escaped = TRUE;
      gsize escape = r->index;
      r->index++;
      if (r->index >= r->length)
        break;
      guchar kind = r->bytes[r->index++];
      if (strchr ("\"\\/bfnrt", kind) != NULL && kind != '\0')
        continue;
      if (kind != 'u')
        return fail_at (r, escape, "an unknown escape \\%c in a string", kind);
      guint scalar;
      if (!hex4 (r, escape, &scalar))
        return FALSE;
      if (scalar >= 0xDC00 && scalar <= 0xDFFF)
        return fail_at (r, escape, "a lone surrogate \\u%04X in a string", scalar);
      if (scalar >= 0xD800 && scalar <= 0xDBFF)
        {
          guint low;
          if (r->length - r->index < 2 || r->bytes[r->index] != '\\' || r->bytes[r->index + 1] != 'u')
            return fail_at (r, escape, "a lone surrogate \\u%04X in a string", scalar);
          r->index += 2;
          if (!hex4 (r, escape, &low))
            return FALSE;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail_at (r, escape, "a lone surrogate \\u%04X in a string", scalar);
        }
    }
  return fail_at (r, start, "a string without its closing '\"'");
}

static gboolean value (Reader *r);

static gboolean
object (Reader *r)
{
  if (++r->depth > FIT_MAX_JSON_DEPTH)
    return fail_at (r, r->index, "nested more than %d deep", FIT_MAX_JSON_DEPTH);
  r->index++;
  /* Member names as written (copies: the table frees them). */
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  skip_space (r);
  if (r->index < r->length && r->bytes[r->index] == '}')
    {
      r->index++;
      r->depth--;
      return TRUE;
    }
  for (;;)
    {
      if (r->index >= r->length || r->bytes[r->index] != '"')
        return expected (r, "a member name (a string)");
      gsize name_at = r->index;
      gboolean escaped;
      if (!string (r, &escaped))
        return FALSE;
      char *name = g_strndup ((const char *) r->bytes + name_at + 1, r->index - name_at - 2);
      if (!g_hash_table_add (names, name))
        return fail_at (r, name_at, "member \"%s\" given twice", name);
      skip_space (r);
      if (r->index >= r->length || r->bytes[r->index] != ':')
        return expected (r, "':' after a member name");
      r->index++;
      skip_space (r);
      if (!value (r))
        return FALSE;
      skip_space (r);
      if (r->index >= r->length)
        return expected (r, "',' or '}'");
      if (r->bytes[r->index] == ',')
        {
          r->index++;
          skip_space (r);
          continue;
        }
      if (r->bytes[r->index] != '}')
        return expected (r, "',' or '}'");
      r->index++;
      r->depth--;
      return TRUE;
    }
}

static gboolean
array (Reader *r)
{
  if (++r->depth > FIT_MAX_JSON_DEPTH)
    return fail_at (r, r->index, "nested more than %d deep", FIT_MAX_JSON_DEPTH);
  r->index++;
  skip_space (r);
  if (r->index < r->length && r->bytes[r->index] == ']')
    {
      r->index++;
      r->depth--;
      return TRUE;
    }
  for (;;)
    {
      if (!value (r))
        return FALSE;
      skip_space (r);
      if (r->index >= r->length)
        return expected (r, "',' or ']'");
      if (r->bytes[r->index] == ',')
        {
          r->index++;
          skip_space (r);
          continue;
        }
      if (r->bytes[r->index] != ']')
        return expected (r, "',' or ']'");
      r->index++;
      r->depth--;
      return TRUE;
    }
}

static gboolean
value (Reader *r)
{
  if (r->index >= r->length)
    return expected (r, "a value");
  gboolean escaped;
  switch (r->bytes[r->index])
    {
    case '{':
      return object (r);
    case '[':
      return array (r);
    case '"':
      return string (r, &escaped);
    case 't':
      return literal (r, "true");
    case 'f':
      return literal (r, "false");
    case 'n':
      return literal (r, "null");
    default:
      if (r->bytes[r->index] == '-' || g_ascii_isdigit (r->bytes[r->index]))
        return number (r);
      return expected (r, "a value");
    }
}

void
fit_json_position (const char *json, gsize offset, guint *line, guint *column)
{
  *line = 1;
  gsize line_start = 0;
  for (gsize i = 0; i < offset; i++)
    if (json[i] == '\n')
      {
        (*line)++;
        line_start = i + 1;
      }
  *column = 1;
  for (gsize i = line_start; i < offset; i++)
    if (((guchar) json[i] & 0xC0) != 0x80)
      (*column)++;
}

gboolean
fit_json_check (const char *json, gsize length, GError **error)
{
  Reader r = { (const guchar *) json, length, 0, 0, 0, NULL };
  const char *end;
  gboolean ok;
  if (!g_utf8_validate_len (json, length, &end))
    ok = fail_at (&r, (gsize) (end - json), "not UTF-8 (byte 0x%02X)", (guchar) *end);
  else
    {
      skip_space (&r);
      ok = value (&r);
      if (ok)
        {
          skip_space (&r);
          if (r.index < r.length)
            {
              char what[32];
              guchar byte = r.bytes[r.index];
              if (byte >= 0x21 && byte < 0x7F)
                g_snprintf (what, sizeof what, "'%c'", byte);
              else
                g_snprintf (what, sizeof what, "byte 0x%02X", byte);
              ok = fail_at (&r, r.index, "unexpected %s after the value", what);
            }
        }
    }
  if (!ok)
    {
      guint line, column;
      fit_json_position (json, r.failed_at, &line, &column);
      g_set_error (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, "line %u, column %u: %s", line, column, r.reason);
      g_free (r.reason);
    }
  return ok;
}
