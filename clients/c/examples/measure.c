/* measure: measures a text and resolves its font through fitd, with libfitd-client.
 *
 *   cc measure.c $(pkg-config --cflags --libs fitd-client) -o measure
 *   ./measure "Hello, world" "DejaVu Sans 12" [MAX_WIDTH]
 *
 * Prints one "key value" line per figure (widths with %.17g, so they read back exactly).
 * On an error prints its domain, code and message to stderr and exits 1. */
#include <fit-client.h>
#include <stdio.h>
#include <stdlib.h>

static int
fail (const char *what, GError *error)
{
  /* The name the daemon replied with, e.g. org.fitd.Fit1.Error.InvalidFont, before the
   * message loses its "GDBus.Error:NAME: " prefix. */
  g_autofree char *name = g_dbus_error_get_remote_error (error);
  g_dbus_error_strip_remote_error (error);
  fprintf (stderr, "%s: %s %d: %s\n", what, g_quark_to_string (error->domain), error->code,
           error->message);
  if (error->domain == FIT_ERROR)
    fprintf (stderr, "fit error %s\n", name);
  g_error_free (error);
  return 1;
}

int
main (int argc, char **argv)
{
  if (argc < 3 || argc > 4)
    {
      fprintf (stderr, "usage: %s TEXT FONT [MAX_WIDTH]\n", argv[0]);
      return 2;
    }
  GError *error = NULL;
  g_autoptr (FitClient) fit = fit_client_new_sync (NULL, &error);
  if (fit == NULL)
    return fail ("connect", error);

  /* Options are an a{sv} (protocol/README.md, "Measure options"): the toolkit this process
   * draws with (fit_client_default_options(): none here, so the daemon's default), and
   * max_width. */
  g_autoptr (GVariant) defaults = fit_client_default_options ();
  GVariantDict options;
  g_variant_dict_init (&options, defaults);
  if (argc == 4)
    {
      char *end;
      double max_width = g_ascii_strtod (argv[3], &end);
      if (*end != '\0' || end == argv[3])
        {
          fprintf (stderr, "MAX_WIDTH is not a number: %s\n", argv[3]);
          return 2;
        }
      g_variant_dict_insert (&options, "max_width", "d", max_width);
    }

  g_autoptr (GVariant) metrics = NULL;
  if (!fit_client_call_measure_sync (fit, argv[1], argv[2], g_variant_dict_end (&options),
                                     &metrics, NULL, &error))
    return fail ("Measure", error);
  /* Metrics (dddubbasa(dddduusb)t): width, height, baseline, line count, ellipsized,
   * truncated, fonts, lines, generation. */
  double width, height, baseline;
  guint32 line_count;
  gboolean ellipsized, truncated;
  g_autoptr (GVariantIter) fonts = NULL;
  guint64 generation;
  g_variant_get (metrics, "(dddubbas@a(dddduusb)t)", &width, &height, &baseline, &line_count,
                 &ellipsized, &truncated, &fonts, NULL, &generation);
  printf ("width %.17g\nheight %.17g\nbaseline %.17g\nlines %u\ntruncated %s\n", width, height,
          baseline, line_count, truncated ? "true" : "false");
  const char *family;
  printf ("fonts ");
  for (const char *separator = ""; g_variant_iter_next (fonts, "&s", &family); separator = ", ")
    printf ("%s%s", separator, family);
  printf ("\n");

  g_autoptr (GVariant) resolved = NULL;
  if (!fit_client_call_resolve_font_sync (fit, argv[2], &resolved, NULL, &error))
    return fail ("ResolveFont", error);
  /* (sssdsdddbas): description, family, style, weight, file, pixel size, ascent, descent,
   * matched, fallback families. */
  const char *description, *resolved_family, *style, *file;
  double weight, pixel_size;
  g_variant_get (resolved, "(&s&s&sd&sdddb@as)", &description, &resolved_family, &style,
                 &weight, &file, &pixel_size, NULL, NULL, NULL, NULL);
  printf ("resolved %s\nfamily %s\nfile %s\npixel-size %.17g\n", description, resolved_family,
          file, pixel_size);

  /* Properties come from the proxy's cache, filled when it was made. */
  printf ("ui-font %s\ntext-scale %.17g\n", fit_client_get_ui_font (fit),
          fit_client_get_text_scale (fit));
  return 0;
}
