/* fitd-layout-test: libfitd-client's typed API as a C program meets it, for
 * Tests/EndToEnd/c_client_layout.sh (which compares what it prints with fitctl's answers for
 * the same documents from the same daemon, and with layout.js and layout.vala).
 *
 *   fitd-layout-test layout FILE WIDTH [MIN MAX]   lay out (file, JSON text, async: all three
 *                                                  must agree) and print the typed result
 *   fitd-layout-test flatten FILE                  print fit_document_from_file()'s wire form
 *   fitd-layout-test json TEXT WIDTH               lay out a JSON text; an error is printed as
 *                                                  "error DOMAIN CODE: MESSAGE", exit 1
 *   fitd-layout-test measure TEXT FONT             print the typed metrics
 *   fitd-layout-test terminal FILE                 write the terminal profile, its reason and
 *                                                  "👩‍💻 dev" measured in cells to FILE, print
 *                                                  "probe done" and wait (for a tmux pane)
 *
 * A layout prints one line per figure (%.17g: they read back exactly):
 *   size W H / frame ID VISIBLE X Y W H TEXT SCALE LINES TRUNCATED [baselines F L] [hidden]
 *   [alignment A] / decision ID KIND CANDIDATE CANDIDATE_ID AXIS LENGTH SCALE /
 *   breakpoints MIN_CONTENT MAX_CONTENT RANGE_MIN RANGE_MAX TEXT_SCALE TRUNCATED /
 *   interval DECISION FROM TO CANDIDATE AXIS FLIP FLIP_SP / truncated B / lookup checks. */
#include <fit-client.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib/gstdio.h>
#include <unistd.h>

static int
fail (GError *error)
{
  printf ("error %s %d: %s\n", g_quark_to_string (error->domain), error->code, error->message);
  g_error_free (error);
  return 1;
}

static char *
describe (FitLayoutResult *result)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, "size %.17g %.17g\n", fit_layout_result_get_width (result),
                          fit_layout_result_get_height (result));
  GPtrArray *frames = fit_layout_result_get_frames (result);
  for (guint i = 0; i < frames->len; i++)
    {
      FitFrame *frame = g_ptr_array_index (frames, i);
      g_string_append_printf (out, "frame %s %d %.17g %.17g %.17g %.17g %d %.17g %u %d", fit_frame_get_id (frame),
                              fit_frame_get_visible (frame), fit_frame_get_x (frame), fit_frame_get_y (frame),
                              fit_frame_get_width (frame), fit_frame_get_height (frame), fit_frame_get_is_text (frame),
                              fit_frame_get_scale (frame), fit_frame_get_line_count (frame),
                              fit_frame_get_truncated (frame));
      double first, last;
      if (fit_frame_get_baselines (frame, &first, &last))
        g_string_append_printf (out, " baselines %.17g %.17g", first, last);
      if (fit_frame_get_hidden (frame))
        g_string_append (out, " hidden");
      if (fit_frame_get_alignment (frame) != NULL)
        g_string_append_printf (out, " alignment %s", fit_frame_get_alignment (frame));
      g_string_append_c (out, '\n');
      /* Lookup by id finds this frame (ids are unique). */
      if (fit_layout_result_get_frame (result, fit_frame_get_id (frame)) != frame)
        g_string_append_printf (out, "LOOKUP FAILED frame %s\n", fit_frame_get_id (frame));
    }
  GPtrArray *decisions = fit_layout_result_get_decisions (result);
  for (guint i = 0; i < decisions->len; i++)
    {
      FitDecision *decision = g_ptr_array_index (decisions, i);
      const char *candidate_id = fit_decision_get_candidate_id (decision);
      const char *axis = fit_decision_get_axis (decision);
      g_string_append_printf (out, "decision %s %s %d %s %s %.17g %.17g\n", fit_decision_get_id (decision),
                              fit_decision_get_kind (decision), fit_decision_get_candidate (decision),
                              candidate_id != NULL ? candidate_id : "-", axis != NULL ? axis : "-",
                              fit_decision_get_length (decision), fit_decision_get_scale (decision));
      if (fit_layout_result_get_decision (result, fit_decision_get_id (decision)) != decision)
        g_string_append_printf (out, "LOOKUP FAILED decision %s\n", fit_decision_get_id (decision));
    }
  if (fit_layout_result_get_frame (result, "no such node") != NULL
      || fit_layout_result_get_decision (result, "no such node") != NULL)
    g_string_append (out, "LOOKUP FAILED: an unknown id was found\n");
  FitBreakpoints *breakpoints = fit_layout_result_get_breakpoints (result);
  if (breakpoints != NULL)
    {
      double min, max;
      fit_breakpoints_get_range (breakpoints, &min, &max);
      g_string_append_printf (out, "breakpoints %.17g %.17g %.17g %.17g %.17g %d\n",
                              fit_breakpoints_get_min_content_width (breakpoints),
                              fit_breakpoints_get_max_content_width (breakpoints), min, max,
                              fit_breakpoints_get_text_scale (breakpoints), fit_breakpoints_get_truncated (breakpoints));
      const char *const *ids = fit_breakpoints_get_decision_ids (breakpoints);
      for (guint i = 0; ids[i] != NULL; i++)
        {
          GPtrArray *intervals = fit_breakpoints_get_intervals (breakpoints, ids[i]);
          for (guint j = 0; j < intervals->len; j++)
            {
              FitInterval *interval = g_ptr_array_index (intervals, j);
              const char *axis = fit_interval_get_axis (interval);
              g_string_append_printf (out, "interval %s %.17g %.17g %d %s %.17g %.17g\n", ids[i],
                                      fit_interval_get_from (interval), fit_interval_get_to (interval),
                                      fit_interval_get_candidate (interval), axis != NULL ? axis : "-",
                                      fit_interval_get_flip (interval), fit_interval_get_flip_sp (interval));
            }
        }
      if (fit_breakpoints_get_intervals (breakpoints, "no such node") != NULL)
        g_string_append (out, "LOOKUP FAILED: intervals of an unknown id\n");
    }
  g_string_append_printf (out, "truncated %d\n", fit_layout_result_get_truncated (result));
  return g_string_free (out, FALSE);
}

/* The callback of both async layouts: the finish function of the call that made @result. */
static void
done (GObject *source, GAsyncResult *result, gpointer data)
{
  FitLayoutResult **out = data;
  GError *error = NULL;
  if (g_async_result_is_tagged (result, fit_client_layout_file_async))
    *out = fit_client_layout_file_finish (FIT_CLIENT (source), result, &error);
  else
    *out = fit_client_layout_json_finish (FIT_CLIENT (source), result, &error);
  if (*out == NULL)
    exit (fail (error));
}

static double
number (const char *text)
{
  char *end;
  double value = g_ascii_strtod (text, &end);
  if (*end != '\0' || end == text)
    {
      fprintf (stderr, "not a number: %s\n", text);
      exit (2);
    }
  return value;
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  if (argc == 3 && g_str_equal (argv[1], "flatten"))
    {
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (argv[2]);
      g_autoptr (GVariant) nodes = fit_document_from_file (file, NULL, &error);
      if (nodes == NULL)
        return fail (error);
      g_autofree char *text = g_variant_print (nodes, TRUE);
      printf ("%s\n", text);
      return 0;
    }
  g_autoptr (FitClient) fit = fit_client_new_sync (NULL, &error);
  if (fit == NULL)
    return fail (error);
  if (argc == 4 && g_str_equal (argv[1], "json"))
    {
      g_autoptr (FitLayoutResult) result = fit_client_layout_json (fit, argv[2], number (argv[3]), FIT_IDEAL, NULL, NULL, &error);
      if (result == NULL)
        return fail (error);
      g_autofree char *text = describe (result);
      printf ("%s", text);
      return 0;
    }
  if (argc == 4 && g_str_equal (argv[1], "measure"))
    {
      g_autoptr (FitMetrics) metrics = fit_client_measure (fit, argv[2], argv[3], g_variant_new_parsed ("{'lines': <true>}"),
                                                           NULL, &error);
      if (metrics == NULL)
        return fail (error);
      printf ("width %.17g\nheight %.17g\nlines %u\nfonts", fit_metrics_get_width (metrics),
              fit_metrics_get_height (metrics), fit_metrics_get_line_count (metrics));
      for (const char *const *font = fit_metrics_get_fonts (metrics); *font != NULL; font++)
        printf (" %s", *font);
      GPtrArray *lines = fit_metrics_get_lines (metrics);
      printf ("\nline-texts %u", lines->len);
      for (guint i = 0; i < lines->len; i++)
        printf (" [%s]", fit_line_get_text (g_ptr_array_index (lines, i)));
      printf ("\n");
      return 0;
    }
  if (argc == 3 && g_str_equal (argv[1], "terminal"))
    {
      const char *reason;
      const char *profile = fit_client_terminal_profile (&reason);
      g_autoptr (FitMetrics) metrics = fit_client_measure (fit, "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB dev", "",
                                                           g_variant_new_parsed ("{'unit': <'cells'>}"), NULL, &error);
      if (metrics == NULL)
        return fail (error);
      g_autofree char *text = g_strdup_printf ("profile %s\nwidth %g\nreason %s\n", profile != NULL ? profile : "none",
                                               fit_metrics_get_width (metrics), reason);
      g_autofree char *temporary = g_strconcat (argv[2], ".tmp", NULL);
      if (!g_file_set_contents (temporary, text, -1, &error))
        return fail (error);
      if (g_rename (temporary, argv[2]) != 0)
        {
          perror (argv[2]);
          return 1;
        }
      printf ("probe done\n");
      fflush (stdout);
      /* In a tmux pane, stay a while, so that the pane can be read with the program still there. */
      if (isatty (STDOUT_FILENO))
        g_usleep (30 * G_USEC_PER_SEC);
      return 0;
    }
  if ((argc == 4 || argc == 6) && g_str_equal (argv[1], "layout"))
    {
      double width = number (argv[3]);
      GVariantDict options;
      g_variant_dict_init (&options, NULL);
      if (argc == 6)
        g_variant_dict_insert (&options, "breakpoints", "(dd)", number (argv[4]), number (argv[5]));
      g_autoptr (GVariant) sent = g_variant_ref_sink (g_variant_dict_end (&options));
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (argv[2]);
      g_autoptr (FitLayoutResult) from_file = fit_client_layout_file (fit, file, width, FIT_IDEAL, sent, NULL, &error);
      if (from_file == NULL)
        return fail (error);
      g_autofree char *contents = NULL;
      if (!g_file_load_contents (file, NULL, &contents, NULL, NULL, &error))
        return fail (error);
      g_autoptr (FitLayoutResult) from_json = fit_client_layout_json (fit, contents, width, FIT_IDEAL, sent, NULL, &error);
      if (from_json == NULL)
        return fail (error);
      g_autoptr (FitLayoutResult) from_async = NULL, from_file_async = NULL;
      fit_client_layout_json_async (fit, contents, width, FIT_IDEAL, sent, NULL, done, &from_async);
      fit_client_layout_file_async (fit, file, width, FIT_IDEAL, sent, NULL, done, &from_file_async);
      while (from_async == NULL || from_file_async == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_autofree char *a = describe (from_file), *b = describe (from_json), *c = describe (from_async),
                       *d = describe (from_file_async);
      if (!g_str_equal (a, b) || !g_str_equal (a, c) || !g_str_equal (a, d))
        {
          fprintf (stderr, "the file, JSON, async and async file layouts differ:\n%s---\n%s---\n%s---\n%s", a, b, c, d);
          return 1;
        }
      printf ("%s", a);
      return 0;
    }
  fprintf (stderr, "usage: %s layout FILE WIDTH [MIN MAX] | flatten FILE | json TEXT WIDTH | measure TEXT FONT | terminal FILE\n", argv[0]);
  return 2;
}
