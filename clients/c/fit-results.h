/* libfitd-client's typed results: a Layout reply as FitLayoutResult (its FitFrames,
 * FitDecisions and FitBreakpoints) and a Measure reply as FitMetrics (its FitLines), read
 * from the wire forms protocol/README.md documents ("Layout", "Methods and properties at a
 * glance"). Included by fit-client.h. */
#ifndef FIT_RESULTS_H
#define FIT_RESULTS_H

#if !defined(FIT_CLIENT_H) && !defined(FIT_CLIENT_COMPILATION)
#error "include <fit-client.h>"
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

#define FIT_TYPE_FRAME (fit_frame_get_type ())
G_DECLARE_FINAL_TYPE (FitFrame, fit_frame, FIT, FRAME, GObject)

const char *fit_frame_get_id (FitFrame *frame);
gboolean fit_frame_get_visible (FitFrame *frame);
double fit_frame_get_x (FitFrame *frame);
double fit_frame_get_y (FitFrame *frame);
double fit_frame_get_width (FitFrame *frame);
double fit_frame_get_height (FitFrame *frame);
gboolean fit_frame_get_is_text (FitFrame *frame);
double fit_frame_get_scale (FitFrame *frame);
guint fit_frame_get_line_count (FitFrame *frame);
gboolean fit_frame_get_truncated (FitFrame *frame);
gboolean fit_frame_get_baselines (FitFrame *frame, double *first, double *last);
gboolean fit_frame_get_hidden (FitFrame *frame);
const char *fit_frame_get_alignment (FitFrame *frame);
gboolean fit_frame_get_widget_size (FitFrame *frame, int *minimum_width, int *natural_width,
                                    int *minimum_height, int *natural_height, int *baseline);
GVariant *fit_frame_get_extras (FitFrame *frame);

#define FIT_TYPE_DECISION (fit_decision_get_type ())
G_DECLARE_FINAL_TYPE (FitDecision, fit_decision, FIT, DECISION, GObject)

const char *fit_decision_get_id (FitDecision *decision);
guint fit_decision_get_node_index (FitDecision *decision);
const char *fit_decision_get_kind (FitDecision *decision);
int fit_decision_get_candidate (FitDecision *decision);
const char *fit_decision_get_candidate_id (FitDecision *decision);
const char *fit_decision_get_axis (FitDecision *decision);
double fit_decision_get_length (FitDecision *decision);
double fit_decision_get_scale (FitDecision *decision);
GVariant *fit_decision_get_outcome (FitDecision *decision);

#define FIT_TYPE_INTERVAL (fit_interval_get_type ())
G_DECLARE_FINAL_TYPE (FitInterval, fit_interval, FIT, INTERVAL, GObject)

double fit_interval_get_from (FitInterval *interval);
double fit_interval_get_to (FitInterval *interval);
int fit_interval_get_candidate (FitInterval *interval);
const char *fit_interval_get_axis (FitInterval *interval);
double fit_interval_get_flip (FitInterval *interval);
double fit_interval_get_flip_sp (FitInterval *interval);

#define FIT_TYPE_BREAKPOINTS (fit_breakpoints_get_type ())
G_DECLARE_FINAL_TYPE (FitBreakpoints, fit_breakpoints, FIT, BREAKPOINTS, GObject)

double fit_breakpoints_get_min_content_width (FitBreakpoints *breakpoints);
double fit_breakpoints_get_max_content_width (FitBreakpoints *breakpoints);
void fit_breakpoints_get_range (FitBreakpoints *breakpoints, double *min, double *max);
double fit_breakpoints_get_text_scale (FitBreakpoints *breakpoints);
gboolean fit_breakpoints_get_truncated (FitBreakpoints *breakpoints);
const char *const *fit_breakpoints_get_decision_ids (FitBreakpoints *breakpoints);
GPtrArray *fit_breakpoints_get_intervals (FitBreakpoints *breakpoints, const char *decision_id);

#define FIT_TYPE_LAYOUT_RESULT (fit_layout_result_get_type ())
G_DECLARE_FINAL_TYPE (FitLayoutResult, fit_layout_result, FIT, LAYOUT_RESULT, GObject)

double fit_layout_result_get_width (FitLayoutResult *result);
double fit_layout_result_get_height (FitLayoutResult *result);
GPtrArray *fit_layout_result_get_frames (FitLayoutResult *result);
FitFrame *fit_layout_result_get_frame (FitLayoutResult *result, const char *id);
GPtrArray *fit_layout_result_get_decisions (FitLayoutResult *result);
FitDecision *fit_layout_result_get_decision (FitLayoutResult *result, const char *id);
gboolean fit_layout_result_get_truncated (FitLayoutResult *result);
guint64 fit_layout_result_get_generation (FitLayoutResult *result);
FitBreakpoints *fit_layout_result_get_breakpoints (FitLayoutResult *result);

FitLayoutResult *fit_layout_result_new_from_reply (GVariant *size, GVariant *frames,
                                                   GVariant *decisions, gboolean truncated,
                                                   guint64 generation, GError **error);

#define FIT_TYPE_LINE (fit_line_get_type ())
G_DECLARE_FINAL_TYPE (FitLine, fit_line, FIT, LINE, GObject)

double fit_line_get_width (FitLine *line);
double fit_line_get_ascent (FitLine *line);
double fit_line_get_descent (FitLine *line);
double fit_line_get_baseline (FitLine *line);
guint fit_line_get_start (FitLine *line);
guint fit_line_get_length (FitLine *line);
const char *fit_line_get_text (FitLine *line);
gboolean fit_line_get_ellipsized (FitLine *line);

#define FIT_TYPE_METRICS (fit_metrics_get_type ())
G_DECLARE_FINAL_TYPE (FitMetrics, fit_metrics, FIT, METRICS, GObject)

double fit_metrics_get_width (FitMetrics *metrics);
double fit_metrics_get_height (FitMetrics *metrics);
double fit_metrics_get_baseline (FitMetrics *metrics);
guint fit_metrics_get_line_count (FitMetrics *metrics);
gboolean fit_metrics_get_ellipsized (FitMetrics *metrics);
gboolean fit_metrics_get_truncated (FitMetrics *metrics);
const char *const *fit_metrics_get_fonts (FitMetrics *metrics);
GPtrArray *fit_metrics_get_lines (FitMetrics *metrics);
guint64 fit_metrics_get_generation (FitMetrics *metrics);

FitMetrics *fit_metrics_new_from_reply (GVariant *metrics, GError **error);

G_END_DECLS

#endif
