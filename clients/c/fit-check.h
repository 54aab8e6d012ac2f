/* libfitd-client's translation check: `fitctl check` (docs/translation-check.md) run as a
 * subprocess and its --json report typed. Included by fit-client.h. */
#ifndef FIT_CHECK_H
#define FIT_CHECK_H

#if !defined(FIT_CLIENT_H) && !defined(FIT_CLIENT_COMPILATION)
#error "include <fit-client.h>"
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

#define FIT_TYPE_CHECK_FINDING (fit_check_finding_get_type ())
G_DECLARE_FINAL_TYPE (FitCheckFinding, fit_check_finding, FIT, CHECK_FINDING, GObject)

const char *fit_check_finding_get_kind (FitCheckFinding *finding);
const char *fit_check_finding_get_language (FitCheckFinding *finding);
const char *fit_check_finding_get_category (FitCheckFinding *finding);
double fit_check_finding_get_width (FitCheckFinding *finding);
const char *fit_check_finding_get_node (FitCheckFinding *finding);
const char *fit_check_finding_get_text (FitCheckFinding *finding);
const char *fit_check_finding_get_detail (FitCheckFinding *finding);
double fit_check_finding_get_frame_width (FitCheckFinding *finding);
gboolean fit_check_finding_get_failing (FitCheckFinding *finding);

#define FIT_TYPE_WORST_STRING (fit_worst_string_get_type ())
G_DECLARE_FINAL_TYPE (FitWorstString, fit_worst_string, FIT, WORST_STRING, GObject)

const char *fit_worst_string_get_language (FitWorstString *worst);
const char *fit_worst_string_get_node (FitWorstString *worst);
const char *fit_worst_string_get_text (FitWorstString *worst);
double fit_worst_string_get_natural_width (FitWorstString *worst);
double fit_worst_string_get_room (FitWorstString *worst);
const char *fit_worst_string_get_category (FitWorstString *worst);
double fit_worst_string_get_width (FitWorstString *worst);

#define FIT_TYPE_CANDIDATE_WIDTH (fit_candidate_width_get_type ())
G_DECLARE_FINAL_TYPE (FitCandidateWidth, fit_candidate_width, FIT, CANDIDATE_WIDTH, GObject)

const char *fit_candidate_width_get_decision (FitCandidateWidth *width);
const char *fit_candidate_width_get_category (FitCandidateWidth *width);
int fit_candidate_width_get_candidate (FitCandidateWidth *width);
const char *fit_candidate_width_get_candidate_id (FitCandidateWidth *width);
const char *fit_candidate_width_get_language (FitCandidateWidth *width);
double fit_candidate_width_get_px (FitCandidateWidth *width);
double fit_candidate_width_get_sp (FitCandidateWidth *width);
const char *fit_candidate_width_get_fallback_condition (FitCandidateWidth *width);
const char *fit_candidate_width_get_fallback_condition_px (FitCandidateWidth *width);

#define FIT_TYPE_CHECK_REPORT (fit_check_report_get_type ())
G_DECLARE_FINAL_TYPE (FitCheckReport, fit_check_report, FIT, CHECK_REPORT, GObject)

const char *fit_check_report_get_source_language (FitCheckReport *report);
const char *const *fit_check_report_get_languages (FitCheckReport *report);
const char *const *fit_check_report_get_categories (FitCheckReport *report);
const double *fit_check_report_get_widths (FitCheckReport *report, guint *n_widths);
guint fit_check_report_get_layouts (FitCheckReport *report);
gboolean fit_check_report_get_fits (FitCheckReport *report);
GPtrArray *fit_check_report_get_findings (FitCheckReport *report);
GPtrArray *fit_check_report_get_failures (FitCheckReport *report);
GPtrArray *fit_check_report_get_worst_strings (FitCheckReport *report);
double fit_check_report_get_text_scale (FitCheckReport *report);
GPtrArray *fit_check_report_get_candidate_widths (FitCheckReport *report);

FitCheckReport *fit_check_report_new_from_json (const char *json, GError **error);

FitCheckReport *fit_check_run_sync (const char *document_path, const char *const *translations,
                                    const char *widths, const char *const *languages,
                                    const char *const *categories, gboolean local,
                                    GCancellable *cancellable, GError **error);
void fit_check_run_async (const char *document_path, const char *const *translations,
                          const char *widths, const char *const *languages,
                          const char *const *categories, gboolean local, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data);
FitCheckReport *fit_check_run_finish (GAsyncResult *result, GError **error);

G_END_DECLS

#endif
