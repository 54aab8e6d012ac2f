/* fitd-check-test: libfitd-client's translation check (fit_check_run_sync(), `fitctl check`
 * typed) as a C program meets it, for Tests/EndToEnd/c_client_check.sh, which compares what
 * it prints with `fitctl check --json` for the same document and with tests/check.js.
 *
 *   fitd-check-test DOCUMENT TRANSLATIONS WIDTHS LANGUAGES CATEGORIES [local|cancel]
 *
 * TRANSLATIONS, LANGUAGES and CATEGORIES are comma-separated ("-": NULL, fitctl's default).
 * The check runs sync and async, which must agree; `cancel` runs it async with a cancelled
 * GCancellable instead. A report prints one line per part, fields separated by tabs ("-" for
 * NULL, numbers %.17g):
 *   report SOURCE LANGUAGES CATEGORIES WIDTHS LAYOUTS FITS TEXT_SCALE
 *   finding KIND LANGUAGE CATEGORY WIDTH NODE TEXT DETAIL FRAME_WIDTH FAILING
 *   failures N
 *   worst LANGUAGE NODE TEXT NATURAL_WIDTH ROOM CATEGORY WIDTH
 *   candidate DECISION CATEGORY CANDIDATE CANDIDATE_ID LANGUAGE PX SP CONDITION CONDITION_PX
 * An error prints "error DOMAIN CODE: MESSAGE" and exits 1. */
#include <fit-client.h>
#include <stdio.h>
#include <string.h>

static const char *
or_dash (const char *text)
{
  return text != NULL ? text : "-";
}

static char *
describe (FitCheckReport *report)
{
  GString *out = g_string_new (NULL);
  g_autofree char *languages = g_strjoinv (",", (GStrv) fit_check_report_get_languages (report));
  g_autofree char *categories = g_strjoinv (",", (GStrv) fit_check_report_get_categories (report));
  guint n_widths;
  const double *widths = fit_check_report_get_widths (report, &n_widths);
  GString *width_list = g_string_new (NULL);
  for (guint i = 0; i < n_widths; i++)
    g_string_append_printf (width_list, "%s%.17g", i > 0 ? "," : "", widths[i]);
  g_string_append_printf (out, "report\t%s\t%s\t%s\t%s\t%u\t%d\t%.17g\n", fit_check_report_get_source_language (report),
                          languages, categories, width_list->str, fit_check_report_get_layouts (report),
                          fit_check_report_get_fits (report), fit_check_report_get_text_scale (report));
  g_string_free (width_list, TRUE);
  GPtrArray *findings = fit_check_report_get_findings (report);
  for (guint i = 0; i < findings->len; i++)
    {
      FitCheckFinding *f = g_ptr_array_index (findings, i);
      g_string_append_printf (out, "finding\t%s\t%s\t%s\t%.17g\t%s\t%s\t%s\t%.17g\t%d\n", fit_check_finding_get_kind (f),
                              fit_check_finding_get_language (f), or_dash (fit_check_finding_get_category (f)),
                              fit_check_finding_get_width (f), or_dash (fit_check_finding_get_node (f)),
                              or_dash (fit_check_finding_get_text (f)), fit_check_finding_get_detail (f),
                              fit_check_finding_get_frame_width (f), fit_check_finding_get_failing (f));
    }
  g_string_append_printf (out, "failures\t%u\n", fit_check_report_get_failures (report)->len);
  GPtrArray *worst = fit_check_report_get_worst_strings (report);
  for (guint i = 0; i < worst->len; i++)
    {
      FitWorstString *w = g_ptr_array_index (worst, i);
      g_string_append_printf (out, "worst\t%s\t%s\t%s\t%.17g\t%.17g\t%s\t%.17g\n", fit_worst_string_get_language (w),
                              fit_worst_string_get_node (w), fit_worst_string_get_text (w),
                              fit_worst_string_get_natural_width (w), fit_worst_string_get_room (w),
                              fit_worst_string_get_category (w), fit_worst_string_get_width (w));
    }
  GPtrArray *candidates = fit_check_report_get_candidate_widths (report);
  for (guint i = 0; i < candidates->len; i++)
    {
      FitCandidateWidth *c = g_ptr_array_index (candidates, i);
      g_string_append_printf (out, "candidate\t%s\t%s\t%d\t%s\t%s\t%.17g\t%.17g\t%s\t%s\n",
                              fit_candidate_width_get_decision (c), fit_candidate_width_get_category (c),
                              fit_candidate_width_get_candidate (c), or_dash (fit_candidate_width_get_candidate_id (c)),
                              or_dash (fit_candidate_width_get_language (c)), fit_candidate_width_get_px (c),
                              fit_candidate_width_get_sp (c), or_dash (fit_candidate_width_get_fallback_condition (c)),
                              or_dash (fit_candidate_width_get_fallback_condition_px (c)));
    }
  return g_string_free (out, FALSE);
}

typedef struct
{
  GMainLoop *loop;
  FitCheckReport *report;
  GError *error;
} Waiting;

static void
done (GObject *source G_GNUC_UNUSED, GAsyncResult *result, gpointer data)
{
  Waiting *waiting = data;
  waiting->report = fit_check_run_finish (result, &waiting->error);
  g_main_loop_quit (waiting->loop);
}

static int
fail (GError *error)
{
  printf ("error %s %d: %s\n", g_quark_to_string (error->domain), error->code, error->message);
  g_error_free (error);
  return 1;
}

static GStrv
list (const char *arg)
{
  return g_str_equal (arg, "-") ? NULL : g_strsplit (arg, ",", -1);
}

int
main (int argc, char **argv)
{
  if (argc < 6)
    {
      fprintf (stderr, "usage: %s DOCUMENT TRANSLATIONS WIDTHS LANGUAGES CATEGORIES [local|cancel]\n", argv[0]);
      return 2;
    }
  g_auto (GStrv) translations = list (argv[2]);
  g_auto (GStrv) languages = list (argv[4]);
  g_auto (GStrv) categories = list (argv[5]);
  const char *mode = argc > 6 ? argv[6] : "";
  gboolean local = g_str_equal (mode, "local");
  const char *const *t = (const char *const *) translations, *const *l = (const char *const *) languages,
                    *const *c = (const char *const *) categories;

  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *sync_text = NULL;
  if (g_str_equal (mode, "cancel"))
    g_cancellable_cancel (cancellable);
  else
    {
      GError *error = NULL;
      g_autoptr (FitCheckReport) report = fit_check_run_sync (argv[1], t, argv[3], l, c, local, NULL, &error);
      if (report == NULL)
        return fail (error);
      sync_text = describe (report);
    }

  /* The async form, from a main loop: the same report (or, cancelled, G_IO_ERROR_CANCELLED). */
  Waiting waiting = { g_main_loop_new (NULL, FALSE), NULL, NULL };
  fit_check_run_async (argv[1], t, argv[3], l, c, local, cancellable, done, &waiting);
  g_main_loop_run (waiting.loop);
  g_main_loop_unref (waiting.loop);
  if (waiting.report == NULL)
    return fail (waiting.error);
  g_autoptr (FitCheckReport) report = waiting.report;
  g_autofree char *text = describe (report);
  if (sync_text == NULL || strcmp (text, sync_text) != 0)
    {
      fprintf (stderr, "the sync and async reports differ:\n%s---\n%s", sync_text != NULL ? sync_text : "(none)\n", text);
      return 1;
    }
  fputs (text, stdout);
  return 0;
}
