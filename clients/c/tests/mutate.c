/* fitd-mutate-test: fit_document_from_json() on documents mutated at random (bytes changed,
 * cut short, runs repeated, brackets and odd nodes inserted): every one is flattened or
 * refused with FIT_ERROR_INVALID_DOCUMENT, never a crash or another error; a megabyte of
 * "[" is refused by its nesting (json-glib would recurse once per level). The same seed
 * every run, so a failure repeats. Tests/EndToEnd/c_client_layout.sh runs it (also built
 * with AddressSanitizer and UBSan by hand: clean).
 *
 *   fitd-mutate-test ROUNDS FILE...   prints "refused N, flattened M" */
#include <fit-client.h>
#include <stdio.h>
#include <stdlib.h>

static void
mutate (GString *doc, GRand *rand)
{
  static const char bytes[] = "[]{}\",:0a-#\\ \x80\xff";
  for (int edits = g_rand_int_range (rand, 1, 6); edits > 0; edits--)
    {
      guint at = doc->len > 0 ? (guint) g_rand_int_range (rand, 0, (gint32) doc->len) : 0;
      switch (g_rand_int_range (rand, 0, 6))
        {
        case 0:
          if (doc->len > 0)
            doc->str[at] = bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)];
          break;
        case 1:
          g_string_truncate (doc, at);
          break;
        case 2:
          g_string_insert (doc, at, "[[[[[[[[[[{\"a\":");
          break;
        case 3:
          g_string_insert_len (doc, at, doc->str, MIN (doc->len, 200));
          break;
        case 4:
          g_string_insert (doc, at, "{\"kind\":\"text\",\"data\":[{\"x\":1},{}],\"id\":\"#9\"},");
          break;
        default:
          if (doc->len > at + 5)
            g_string_erase (doc, at, 5);
        }
    }
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s ROUNDS FILE...\n", argv[0]);
      return 2;
    }
  int rounds = atoi (argv[1]);
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  guint refused = 0, flattened = 0;
  for (int f = 2; f < argc; f++)
    {
      g_autofree char *seed = NULL;
      gsize length;
      g_autoptr (GError) error = NULL;
      if (!g_file_get_contents (argv[f], &seed, &length, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 2;
        }
      for (int round = 0; round < rounds; round++)
        {
          g_autoptr (GString) doc = g_string_new_len (seed, (gssize) length);
          mutate (doc, rand);
          g_autoptr (GVariant) nodes = fit_document_from_json (doc->str, &error);
          if (nodes != NULL)
            flattened++;
          else if (g_error_matches (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT))
            refused++;
          else
            {
              printf ("%s, round %d: %s %d: %s\n", argv[f], round, g_quark_to_string (error->domain), error->code,
                      error->message);
              return 1;
            }
          g_clear_error (&error);
        }
    }
  g_autofree char *deep = g_strnfill (1 << 20, '[');
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) nodes = fit_document_from_json (deep, &error);
  if (nodes != NULL || !g_error_matches (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT))
    {
      printf ("a megabyte of [ was not refused as too deep\n");
      return 1;
    }
  printf ("refused %u, flattened %u; %s\n", refused, flattened, error->message);
  return 0;
}
