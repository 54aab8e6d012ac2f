/* "Will every translation fit?": `fitctl check` (docs/translation-check.md) from C, GJS,
 * Vala and PyGObject. fitctl stays the one reader of gettext catalogs and JSON translation
 * files and the one place the per-language comparisons are made; this file runs it with
 * --json in a GSubprocess and types its report, as clients/python/src/fitd/check.py does.
 *
 * The report is outside input (another program's output): it is checked as strictly as a
 * document (fit-json.c: RFC 8259, nesting bounded) before json-glib builds the tree, and
 * every member is read by name and type; a member missing or of another type is a
 * FIT_ERROR_INTERNAL naming its place (`findings[2] has no "kind"`), never a crash. The report's
 * shape is the writer's in Sources/fitctl/CheckReport+Output.swift (json(textScale:)). */
#define FIT_CLIENT_COMPILATION
#include "fit-private.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* fitctl's exit statuses (fitctl help check; Sources/fitctl/CommandFailure.swift): 0 all
 * fits, 1 something does not (with a report) or a file could not be read (without), 64
 * usage (ArgumentParser's EX_USAGE), 69 no engine reachable (EX_UNAVAILABLE). */
enum
{
  EXIT_FITS = 0,
  EXIT_FINDINGS = 1,
  EXIT_USAGE = 64,
  EXIT_UNAVAILABLE = 69,
};

/* --- the report's parts ------------------------------------------------------------------ */

/**
 * FitCheckFinding:
 *
 * Something `fitctl check` found in one language (docs/translation-check.md, "What it
 * reports"): its kind is `truncated` or `overflow` (failures: the text or frame fits in the
 * source language, not in this one), `placeholders` (a failure: the translation needs more
 * printf arguments than the node's `args`), `decision` (another candidate than the source
 * language's: adaptive layout at work, not a failure) or `missing` (no translation: laid out
 * in the source language, not a failure).
 */
struct _FitCheckFinding
{
  GObject parent_instance;
  char *kind, *language, *category, *node, *text, *detail;
  double width, frame_width;
  gboolean failing;
};

G_DEFINE_FINAL_TYPE (FitCheckFinding, fit_check_finding, G_TYPE_OBJECT)

static void
fit_check_finding_finalize (GObject *object)
{
  FitCheckFinding *self = FIT_CHECK_FINDING (object);
  g_free (self->kind);
  g_free (self->language);
  g_free (self->category);
  g_free (self->node);
  g_free (self->text);
  g_free (self->detail);
  G_OBJECT_CLASS (fit_check_finding_parent_class)->finalize (object);
}

static void
fit_check_finding_class_init (FitCheckFindingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_check_finding_finalize;
}

static void
fit_check_finding_init (FitCheckFinding *self G_GNUC_UNUSED)
{
}

/**
 * fit_check_finding_get_kind:
 * @finding: a #FitCheckFinding
 *
 * Returns: (transfer none): `truncated`, `overflow`, `placeholders`, `decision` or
 *   `missing` (a newer fitctl may add kinds)
 */
const char *
fit_check_finding_get_kind (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), NULL);
  return finding->kind;
}

/**
 * fit_check_finding_get_language:
 * @finding: a #FitCheckFinding
 *
 * Returns: (transfer none): the language, as the translation set names it (`pt_BR`)
 */
const char *
fit_check_finding_get_language (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), NULL);
  return finding->language;
}

/**
 * fit_check_finding_get_category:
 * @finding: a #FitCheckFinding
 *
 * Returns: (nullable) (transfer none): the size category it was found at
 *   (`accessibilityLarge`), or %NULL for a finding about a message itself (`missing`,
 *   `placeholders`)
 */
const char *
fit_check_finding_get_category (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), NULL);
  return finding->category;
}

/**
 * fit_check_finding_get_width:
 * @finding: a #FitCheckFinding
 *
 * Returns: the proposed width it was found at (`INFINITY` for `inf`), or -1 (#FIT_IDEAL)
 *   where it has none (a message's finding, or the ideal width)
 */
double
fit_check_finding_get_width (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), -1);
  return finding->width;
}

/**
 * fit_check_finding_get_node:
 * @finding: a #FitCheckFinding
 *
 * Returns: (nullable) (transfer none): the id of the node concerned, or %NULL (a message's
 *   finding; the root's overflow)
 */
const char *
fit_check_finding_get_node (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), NULL);
  return finding->node;
}

/**
 * fit_check_finding_get_text:
 * @finding: a #FitCheckFinding
 *
 * Returns: (nullable) (transfer none): the text as laid out in this language (the
 *   translation; the source text for `missing`), or %NULL where no text is concerned
 */
const char *
fit_check_finding_get_text (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), NULL);
  return finding->text;
}

/**
 * fit_check_finding_get_detail:
 * @finding: a #FitCheckFinding
 *
 * Returns: (transfer none): what happened, in fitctl's words ("ellipsized at its line
 *   limit (1) in 240 px")
 */
const char *
fit_check_finding_get_detail (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), NULL);
  return finding->detail;
}

/**
 * fit_check_finding_get_frame_width:
 * @finding: a #FitCheckFinding
 *
 * Returns: the width of the node's frame in this language, or -1 where the report gives none
 */
double
fit_check_finding_get_frame_width (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), -1);
  return finding->frame_width;
}

/**
 * fit_check_finding_get_failing:
 * @finding: a #FitCheckFinding
 *
 * Returns: whether it makes the check fail (`truncated`, `overflow`, `placeholders`)
 */
gboolean
fit_check_finding_get_failing (FitCheckFinding *finding)
{
  g_return_val_if_fail (FIT_IS_CHECK_FINDING (finding), FALSE);
  return finding->failing;
}

/**
 * FitWorstString:
 *
 * A language's widest one-line (or line-limited) text against its room — GtkLabel's
 * natural width against its frame's width in whole px times its lines — at the category
 * and width where it is worst.
 */
struct _FitWorstString
{
  GObject parent_instance;
  char *language, *node, *text, *category;
  double natural_width, room, width;
};

G_DEFINE_FINAL_TYPE (FitWorstString, fit_worst_string, G_TYPE_OBJECT)

static void
fit_worst_string_finalize (GObject *object)
{
  FitWorstString *self = FIT_WORST_STRING (object);
  g_free (self->language);
  g_free (self->node);
  g_free (self->text);
  g_free (self->category);
  G_OBJECT_CLASS (fit_worst_string_parent_class)->finalize (object);
}

static void
fit_worst_string_class_init (FitWorstStringClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_worst_string_finalize;
}

static void
fit_worst_string_init (FitWorstString *self G_GNUC_UNUSED)
{
}

/**
 * fit_worst_string_get_language:
 * @worst: a #FitWorstString
 *
 * Returns: (transfer none): the language
 */
const char *
fit_worst_string_get_language (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), NULL);
  return worst->language;
}

/**
 * fit_worst_string_get_node:
 * @worst: a #FitWorstString
 *
 * Returns: (transfer none): the text node's id
 */
const char *
fit_worst_string_get_node (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), NULL);
  return worst->node;
}

/**
 * fit_worst_string_get_text:
 * @worst: a #FitWorstString
 *
 * Returns: (transfer none): the text in this language
 */
const char *
fit_worst_string_get_text (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), NULL);
  return worst->text;
}

/**
 * fit_worst_string_get_natural_width:
 * @worst: a #FitWorstString
 *
 * Returns: a GtkLabel's natural width for the text (px)
 */
double
fit_worst_string_get_natural_width (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), 0);
  return worst->natural_width;
}

/**
 * fit_worst_string_get_room:
 * @worst: a #FitWorstString
 *
 * Returns: its room: the frame's width in whole px times its lines
 */
double
fit_worst_string_get_room (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), 0);
  return worst->room;
}

/**
 * fit_worst_string_get_category:
 * @worst: a #FitWorstString
 *
 * Returns: (transfer none): the size category where it is worst
 */
const char *
fit_worst_string_get_category (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), NULL);
  return worst->category;
}

/**
 * fit_worst_string_get_width:
 * @worst: a #FitWorstString
 *
 * Returns: the proposed width where it is worst, or -1 (#FIT_IDEAL) where the report gives none
 */
double
fit_worst_string_get_width (FitWorstString *worst)
{
  g_return_val_if_fail (FIT_IS_WORST_STRING (worst), -1);
  return worst->width;
}

/**
 * FitCandidateWidth:
 *
 * Per decision and size category, the smallest width from which the decision shows a
 * candidate (or a preferred one) at every wider width of the searched range, in every
 * language: exact to Pango's unit (1/1024 px), in px and in sp at the report's text scale,
 * with the language that needs it and the libadwaita condition under which the layout must
 * fall back to another candidate (docs/translation-check.md, "What it reports").
 */
struct _FitCandidateWidth
{
  GObject parent_instance;
  char *decision, *category, *candidate_id, *language, *fallback_condition, *fallback_condition_px;
  int candidate;
  double px, sp;
};

G_DEFINE_FINAL_TYPE (FitCandidateWidth, fit_candidate_width, G_TYPE_OBJECT)

static void
fit_candidate_width_finalize (GObject *object)
{
  FitCandidateWidth *self = FIT_CANDIDATE_WIDTH (object);
  g_free (self->decision);
  g_free (self->category);
  g_free (self->candidate_id);
  g_free (self->language);
  g_free (self->fallback_condition);
  g_free (self->fallback_condition_px);
  G_OBJECT_CLASS (fit_candidate_width_parent_class)->finalize (object);
}

static void
fit_candidate_width_class_init (FitCandidateWidthClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_candidate_width_finalize;
}

static void
fit_candidate_width_init (FitCandidateWidth *self G_GNUC_UNUSED)
{
}

/**
 * fit_candidate_width_get_decision:
 * @width: a #FitCandidateWidth
 *
 * Returns: (transfer none): the decision node's id
 */
const char *
fit_candidate_width_get_decision (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), NULL);
  return width->decision;
}

/**
 * fit_candidate_width_get_category:
 * @width: a #FitCandidateWidth
 *
 * Returns: (transfer none): the size category
 */
const char *
fit_candidate_width_get_category (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), NULL);
  return width->category;
}

/**
 * fit_candidate_width_get_candidate:
 * @width: a #FitCandidateWidth
 *
 * Returns: the candidate's position among the decision's children
 */
int
fit_candidate_width_get_candidate (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), -1);
  return width->candidate;
}

/**
 * fit_candidate_width_get_candidate_id:
 * @width: a #FitCandidateWidth
 *
 * Returns: (nullable) (transfer none): the candidate's id, or %NULL where the report gives none
 */
const char *
fit_candidate_width_get_candidate_id (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), NULL);
  return width->candidate_id;
}

/**
 * fit_candidate_width_get_language:
 * @width: a #FitCandidateWidth
 *
 * Returns: (nullable) (transfer none): the language that needs the most room for it (the
 *   source language where none needs more), or %NULL where the report gives none
 */
const char *
fit_candidate_width_get_language (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), NULL);
  return width->language;
}

/**
 * fit_candidate_width_get_px:
 * @width: a #FitCandidateWidth
 *
 * Returns: the width (px, to 1/1024 px) from which the candidate is shown in every
 *   language, or -1 when it is not shown at every width above any point of the searched
 *   range in some language (`"px": null` in fitctl's JSON)
 */
double
fit_candidate_width_get_px (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), -1);
  return width->px;
}

/**
 * fit_candidate_width_get_sp:
 * @width: a #FitCandidateWidth
 *
 * Returns: the same width in sp (px divided by the report's text scale, libadwaita's
 *   `AdwLengthUnit`), or -1 where the px width is not known
 */
double
fit_candidate_width_get_sp (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), -1);
  return width->sp;
}

/**
 * fit_candidate_width_get_fallback_condition:
 * @width: a #FitCandidateWidth
 *
 * Returns: (nullable) (transfer none): the AdwBreakpoint condition under which to fall back
 *   to another candidate, in sp (`max-width: 317.5sp`); %NULL where the width is not known
 *   or is the range's start (no fallback needed)
 */
const char *
fit_candidate_width_get_fallback_condition (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), NULL);
  return width->fallback_condition;
}

/**
 * fit_candidate_width_get_fallback_condition_px:
 * @width: a #FitCandidateWidth
 *
 * Returns: (nullable) (transfer none): the same condition in px (`max-width: 317px`), or %NULL
 */
const char *
fit_candidate_width_get_fallback_condition_px (FitCandidateWidth *width)
{
  g_return_val_if_fail (FIT_IS_CANDIDATE_WIDTH (width), NULL);
  return width->fallback_condition_px;
}

/**
 * FitCheckReport:
 *
 * `fitctl check`'s report (its `--json`, typed): what was laid out (languages × categories
 * × widths), whether everything fits, the findings, each language's worst string and the
 * width each decision's candidates need in every language.
 */
struct _FitCheckReport
{
  GObject parent_instance;
  char *source_language;
  GStrv languages, categories;
  GArray *widths; /* double */
  guint layouts;
  gboolean fits;
  double text_scale;
  GPtrArray *findings, *failures, *worst_strings, *candidate_widths;
};

G_DEFINE_FINAL_TYPE (FitCheckReport, fit_check_report, G_TYPE_OBJECT)

static void
fit_check_report_finalize (GObject *object)
{
  FitCheckReport *self = FIT_CHECK_REPORT (object);
  g_free (self->source_language);
  g_strfreev (self->languages);
  g_strfreev (self->categories);
  g_clear_pointer (&self->widths, g_array_unref);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->failures, g_ptr_array_unref);
  g_clear_pointer (&self->worst_strings, g_ptr_array_unref);
  g_clear_pointer (&self->candidate_widths, g_ptr_array_unref);
  G_OBJECT_CLASS (fit_check_report_parent_class)->finalize (object);
}

static void
fit_check_report_class_init (FitCheckReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_check_report_finalize;
}

static void
fit_check_report_init (FitCheckReport *self G_GNUC_UNUSED)
{
}

/**
 * fit_check_report_get_source_language:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none): the language of the document's own texts (BCP 47, `en`)
 */
const char *
fit_check_report_get_source_language (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return report->source_language;
}

/**
 * fit_check_report_get_languages:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none) (array zero-terminated=1): the languages checked, sorted
 */
const char *const *
fit_check_report_get_languages (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return (const char *const *) report->languages;
}

/**
 * fit_check_report_get_categories:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none) (array zero-terminated=1): the size categories checked
 */
const char *const *
fit_check_report_get_categories (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return (const char *const *) report->categories;
}

/**
 * fit_check_report_get_widths:
 * @report: a #FitCheckReport
 * @n_widths: (out): the number of widths
 *
 * Returns: (transfer none) (array length=n_widths): the proposed widths checked
 *   (`INFINITY` for `inf`; -1, #FIT_IDEAL, for the ideal width)
 */
const double *
fit_check_report_get_widths (FitCheckReport *report, guint *n_widths)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  g_return_val_if_fail (n_widths != NULL, NULL);
  *n_widths = report->widths->len;
  return (const double *) (gpointer) report->widths->data;
}

/**
 * fit_check_report_get_layouts:
 * @report: a #FitCheckReport
 *
 * Returns: how many layouts were made (the source language's included)
 */
guint
fit_check_report_get_layouts (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), 0);
  return report->layouts;
}

/**
 * fit_check_report_get_fits:
 * @report: a #FitCheckReport
 *
 * Returns: whether everything fits: no failing finding (fitctl's exit status 0)
 */
gboolean
fit_check_report_get_fits (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), FALSE);
  return report->fits;
}

/**
 * fit_check_report_get_findings:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none) (element-type FitCheckFinding): every finding, in fitctl's order
 */
GPtrArray *
fit_check_report_get_findings (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return report->findings;
}

/**
 * fit_check_report_get_failures:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none) (element-type FitCheckFinding): the findings that make the check
 *   fail (fit_check_finding_get_failing()), in the same order
 */
GPtrArray *
fit_check_report_get_failures (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return report->failures;
}

/**
 * fit_check_report_get_worst_strings:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none) (element-type FitWorstString): per language, its worst string
 */
GPtrArray *
fit_check_report_get_worst_strings (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return report->worst_strings;
}

/**
 * fit_check_report_get_text_scale:
 * @report: a #FitCheckReport
 *
 * Returns: the text scale the sp widths are given at (1 sp is this many px)
 */
double
fit_check_report_get_text_scale (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), 1);
  return report->text_scale;
}

/**
 * fit_check_report_get_candidate_widths:
 * @report: a #FitCheckReport
 *
 * Returns: (transfer none) (element-type FitCandidateWidth): per decision, category and
 *   candidate, the width it needs in every language
 */
GPtrArray *
fit_check_report_get_candidate_widths (FitCheckReport *report)
{
  g_return_val_if_fail (FIT_IS_CHECK_REPORT (report), NULL);
  return report->candidate_widths;
}

/* --- reading the report ------------------------------------------------------------------ */

static gboolean G_GNUC_PRINTF (3, 4)
unexpected (GError **error, const char *place, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, FIT_ERROR, FIT_ERROR_INTERNAL,
               "fitctl check's report is not as this library reads it: %s %s", place, reason);
  return FALSE;
}

/* The member @name of @object, or NULL when it is absent; a JSON null counts as absent. */
static JsonNode *
member (JsonObject *object, const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  return node == NULL || JSON_NODE_HOLDS_NULL (node) ? NULL : node;
}

/* A string member into *out (a copy); absent: NULL when optional, else an error. */
static gboolean
read_string (JsonObject *object, const char *name, gboolean optional, const char *place, char **out,
             GError **error)
{
  JsonNode *node = member (object, name);
  if (node == NULL)
    return optional || unexpected (error, place, "has no \"%s\"", name);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return unexpected (error, place, "member \"%s\" is not a string", name);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

/* A number as fitctl writes it (LayoutJSON.number): a JSON number, or "infinity",
 * "-infinity" or "nan" for those that are not finite. */
static gboolean
node_number (JsonNode *node, double *out)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  if (type != G_TYPE_STRING)
    return FALSE;
  const char *text = json_node_get_string (node);
  if (g_str_equal (text, "infinity"))
    *out = INFINITY;
  else if (g_str_equal (text, "-infinity"))
    *out = -INFINITY;
  else if (g_str_equal (text, "nan"))
    *out = NAN;
  else
    return FALSE;
  return TRUE;
}

/* A number member into *out; absent: -1 when optional, else an error. */
static gboolean
read_number (JsonObject *object, const char *name, gboolean optional, const char *place, double *out,
             GError **error)
{
  JsonNode *node = member (object, name);
  if (node == NULL)
    {
      *out = -1;
      return optional || unexpected (error, place, "has no \"%s\"", name);
    }
  return node_number (node, out) || unexpected (error, place, "member \"%s\" is not a number", name);
}

/* A whole number from 0 to @max. */
static gboolean
read_count (JsonObject *object, const char *name, const char *place, guint max, guint *out, GError **error)
{
  double value;
  if (!read_number (object, name, FALSE, place, &value, error))
    return FALSE;
  if (!(value >= 0 && value <= max) || value != floor (value))
    return unexpected (error, place, "member \"%s\" is not a whole number from 0 to %u", name, max);
  *out = (guint) value;
  return TRUE;
}

static gboolean
read_bool (JsonObject *object, const char *name, const char *place, gboolean *out, GError **error)
{
  JsonNode *node = member (object, name);
  if (node == NULL)
    return unexpected (error, place, "has no \"%s\"", name);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return unexpected (error, place, "member \"%s\" is not true or false", name);
  *out = json_node_get_boolean (node);
  return TRUE;
}

static JsonArray *
read_array (JsonObject *object, const char *name, GError **error)
{
  JsonNode *node = member (object, name);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      unexpected (error, "the report", node == NULL ? "has no \"%s\"" : "member \"%s\" is not an array", name);
      return NULL;
    }
  return json_node_get_array (node);
}

static gboolean
read_strings (JsonObject *object, const char *name, GStrv *out, GError **error)
{
  JsonArray *array = read_array (object, name, error);
  if (array == NULL)
    return FALSE;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return unexpected (error, name, "[%u] is not a string", i);
      g_strv_builder_add (builder, json_node_get_string (node));
    }
  *out = g_strv_builder_end (builder);
  return TRUE;
}

/* Each element of the array @name, an object, read into a new object by @read; NULL with
 * @error set at the first that is not as expected. */
typedef GObject *(*ReadElement) (JsonObject *object, const char *place, GError **error);

static GPtrArray *
read_objects (JsonObject *report, const char *name, ReadElement read, GError **error)
{
  JsonArray *array = read_array (report, name, error);
  if (array == NULL)
    return NULL;
  guint n = json_array_get_length (array);
  g_autoptr (GPtrArray) objects = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *place = g_strdup_printf ("%s[%u]", name, i);
      JsonNode *node = json_array_get_element (array, i);
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return unexpected (error, place, "is not an object"), NULL;
      GObject *object = read (json_node_get_object (node), place, error);
      if (object == NULL)
        return NULL;
      g_ptr_array_add (objects, object);
    }
  return g_steal_pointer (&objects);
}

static GObject *
read_finding (JsonObject *o, const char *place, GError **error)
{
  g_autoptr (FitCheckFinding) f = g_object_new (FIT_TYPE_CHECK_FINDING, NULL);
  if (!read_string (o, "kind", FALSE, place, &f->kind, error)
      || !read_string (o, "language", FALSE, place, &f->language, error)
      || !read_string (o, "category", TRUE, place, &f->category, error)
      || !read_number (o, "width", TRUE, place, &f->width, error)
      || !read_string (o, "node", TRUE, place, &f->node, error)
      || !read_string (o, "text", TRUE, place, &f->text, error)
      || !read_string (o, "detail", FALSE, place, &f->detail, error)
      || !read_number (o, "frame_width", TRUE, place, &f->frame_width, error)
      || !read_bool (o, "failing", place, &f->failing, error))
    return NULL;
  return G_OBJECT (g_steal_pointer (&f));
}

static GObject *
read_worst_string (JsonObject *o, const char *place, GError **error)
{
  g_autoptr (FitWorstString) w = g_object_new (FIT_TYPE_WORST_STRING, NULL);
  if (!read_string (o, "language", FALSE, place, &w->language, error)
      || !read_string (o, "node", FALSE, place, &w->node, error)
      || !read_string (o, "text", FALSE, place, &w->text, error)
      || !read_number (o, "natural_width", FALSE, place, &w->natural_width, error)
      || !read_number (o, "room", FALSE, place, &w->room, error)
      || !read_string (o, "category", FALSE, place, &w->category, error)
      || !read_number (o, "width", TRUE, place, &w->width, error))
    return NULL;
  return G_OBJECT (g_steal_pointer (&w));
}

static GObject *
read_candidate_width (JsonObject *o, const char *place, GError **error)
{
  g_autoptr (FitCandidateWidth) c = g_object_new (FIT_TYPE_CANDIDATE_WIDTH, NULL);
  guint candidate;
  if (!read_string (o, "decision", FALSE, place, &c->decision, error)
      || !read_string (o, "category", FALSE, place, &c->category, error)
      || !read_count (o, "candidate", place, G_MAXINT, &candidate, error)
      || !read_string (o, "candidate_id", TRUE, place, &c->candidate_id, error)
      || !read_string (o, "language", TRUE, place, &c->language, error)
      || !read_number (o, "px", TRUE, place, &c->px, error)
      || !read_number (o, "sp", TRUE, place, &c->sp, error)
      || !read_string (o, "fallback_condition", TRUE, place, &c->fallback_condition, error)
      || !read_string (o, "fallback_condition_px", TRUE, place, &c->fallback_condition_px, error))
    return NULL;
  c->candidate = (int) candidate;
  return G_OBJECT (g_steal_pointer (&c));
}

static gboolean
read_report (FitCheckReport *self, JsonObject *o, GError **error)
{
  const char *place = "the report";
  if (!read_string (o, "source_language", FALSE, place, &self->source_language, error)
      || !read_strings (o, "languages", &self->languages, error)
      || !read_strings (o, "categories", &self->categories, error)
      || !read_count (o, "layouts", place, G_MAXUINT, &self->layouts, error)
      || !read_bool (o, "fits", place, &self->fits, error)
      || !read_number (o, "text_scale", FALSE, place, &self->text_scale, error))
    return FALSE;
  JsonArray *widths = read_array (o, "widths", error);
  if (widths == NULL)
    return FALSE;
  self->widths = g_array_sized_new (FALSE, FALSE, sizeof (double), json_array_get_length (widths));
  for (guint i = 0; i < json_array_get_length (widths); i++)
    {
      /* null: no width proposed, the ideal width (FIT_IDEAL). */
      JsonNode *node = json_array_get_element (widths, i);
      double width = -1;
      if (!JSON_NODE_HOLDS_NULL (node) && !node_number (node, &width))
        return unexpected (error, "widths", "[%u] is not a number", i);
      g_array_append_val (self->widths, width);
    }
  if ((self->findings = read_objects (o, "findings", read_finding, error)) == NULL
      || (self->worst_strings = read_objects (o, "worst_strings", read_worst_string, error)) == NULL
      || (self->candidate_widths = read_objects (o, "candidate_widths", read_candidate_width, error)) == NULL)
    return FALSE;
  self->failures = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->findings->len; i++)
    {
      FitCheckFinding *finding = g_ptr_array_index (self->findings, i);
      if (finding->failing)
        g_ptr_array_add (self->failures, g_object_ref (finding));
    }
  return TRUE;
}

/**
 * fit_check_report_new_from_json:
 * @json: `fitctl check --json`'s output
 * @error: return location for a #GError
 *
 * The typed report of `fitctl check --json`'s output, for programs that run fitctl
 * themselves (fit_check_run_sync() does both). The text is read as untrusted input: JSON
 * that is not strictly JSON, or a report without a member this library reads or with one of
 * another type, is #FIT_ERROR_INTERNAL naming the place (`findings[2]`).
 *
 * Returns: (transfer full): the report, or %NULL with @error set
 */
FitCheckReport *
fit_check_report_new_from_json (const char *json, GError **error)
{
  g_return_val_if_fail (json != NULL, NULL);
  gsize length = strlen (json);
  GError *syntax = NULL;
  if (!fit_json_check (json, length, &syntax))
    {
      g_set_error (error, FIT_ERROR, FIT_ERROR_INTERNAL, "fitctl check's report is not JSON: %s", syntax->message);
      g_error_free (syntax);
      return NULL;
    }
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, json, (gssize) length, &syntax))
    {
      g_set_error (error, FIT_ERROR, FIT_ERROR_INTERNAL, "fitctl check's report is not JSON: %s", syntax->message);
      g_error_free (syntax);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      unexpected (error, "the report", "is not an object");
      return NULL;
    }
  g_autoptr (FitCheckReport) self = g_object_new (FIT_TYPE_CHECK_REPORT, NULL);
  if (!read_report (self, json_node_get_object (root), error))
    return NULL;
  return g_steal_pointer (&self);
}

/* --- running fitctl ----------------------------------------------------------------------- */

/* fitctl's one-sentence error: its "Error: " line (ArgumentParser adds a usage after it;
 * fitctl may note a fallback to in-process measuring before it), else all it wrote. */
static char *
fitctl_sentence (const char *stderr_text)
{
  g_auto (GStrv) lines = g_strsplit (stderr_text != NULL ? stderr_text : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "Error: "))
      return g_strdup (g_strstrip (lines[i] + strlen ("Error: ")));
  char *all = g_strstrip (g_strdup (stderr_text != NULL ? stderr_text : ""));
  if (*all != '\0')
    return all;
  g_free (all);
  return g_strdup ("fitctl check wrote no report and no error");
}

static gboolean
blank (const char *text)
{
  for (; text != NULL && *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* The report, or the error its exit status and stderr say. */
static FitCheckReport *
report_from_run (GSubprocess *process, const char *out, char *err, GError **error)
{
  if (!g_subprocess_get_if_exited (process))
    {
      g_set_error (error, FIT_ERROR, FIT_ERROR_INTERNAL, "fitctl check was killed by signal %d%s%s",
                   g_subprocess_get_term_sig (process), blank (err) ? "" : ": ", blank (err) ? "" : g_strstrip (err));
      return NULL;
    }
  int status = g_subprocess_get_exit_status (process);
  g_autofree char *sentence = fitctl_sentence (err);
  switch (status)
    {
    case EXIT_USAGE:
      g_set_error_literal (error, FIT_ERROR, FIT_ERROR_INVALID_ARGUMENT, sentence);
      return NULL;
    case EXIT_UNAVAILABLE:
      g_set_error_literal (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN, sentence);
      return NULL;
    case EXIT_FINDINGS:
      /* Without a report: a document or translation set fitctl could not read. */
      if (blank (out))
        {
          g_set_error_literal (error, FIT_ERROR, FIT_ERROR_INVALID_DOCUMENT, sentence);
          return NULL;
        }
      G_GNUC_FALLTHROUGH;
    case EXIT_FITS:
      return fit_check_report_new_from_json (out != NULL ? out : "", error);
    default:
      g_set_error (error, FIT_ERROR, FIT_ERROR_INTERNAL, "fitctl check exited with status %d: %s", status, sentence);
      return NULL;
    }
}

/* fitctl's command line, or NULL with G_IO_ERROR_NOT_FOUND when there is no fitctl. Options
 * take their value after "=" and the document comes after "--", so that no value can be
 * read as an option; a translation beginning with "-" is given as "./-…" (a file: no gettext
 * domain begins so). */
static GStrv
command_line (const char *document_path, const char *const *translations, const char *widths,
              const char *const *languages, const char *const *categories, gboolean local, GError **error)
{
  const char *given = g_getenv ("FITCTL");
  g_autofree char *fitctl = given != NULL && *given != '\0' ? g_strdup (given) : g_find_program_in_path ("fitctl");
  if (fitctl == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           "fitctl is not installed (no $FITCTL, and no fitctl on PATH; make install puts it beside fitd)");
      return NULL;
    }
  GPtrArray *args = g_ptr_array_new ();
  g_ptr_array_add (args, g_steal_pointer (&fitctl));
  g_ptr_array_add (args, g_strdup ("check"));
  g_ptr_array_add (args, g_strdup ("--json"));
  g_ptr_array_add (args, g_strconcat ("--widths=", widths, NULL));
  if (languages != NULL && languages[0] != NULL)
    {
      g_autofree char *list = g_strjoinv (",", (GStrv) languages);
      g_ptr_array_add (args, g_strconcat ("--languages=", list, NULL));
    }
  if (categories != NULL && categories[0] != NULL)
    {
      g_autofree char *list = g_strjoinv (",", (GStrv) categories);
      g_ptr_array_add (args, g_strconcat ("--categories=", list, NULL));
    }
  if (local)
    g_ptr_array_add (args, g_strdup ("--local"));
  g_ptr_array_add (args, g_strdup ("--translations"));
  for (guint i = 0; translations[i] != NULL; i++)
    g_ptr_array_add (args, g_strconcat (translations[i][0] == '-' ? "./" : "", translations[i], NULL));
  g_ptr_array_add (args, g_strdup ("--"));
  g_ptr_array_add (args, g_strdup (document_path));
  g_ptr_array_add (args, NULL);
  return (GStrv) g_ptr_array_free (args, FALSE);
}

static GSubprocess *
spawn (const char *const *argv, GError **error)
{
  GError *failure = NULL;
  GSubprocess *process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                            &failure);
  if (process == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "fitctl (%s) could not be run: %s", argv[0],
                   failure->message);
      g_error_free (failure);
    }
  return process;
}

/* communicate_utf8 failed: cancelled (kept as G_IO_ERROR_CANCELLED), or fitctl's output could
 * not be read (not UTF-8: FIT_ERROR_INTERNAL, as any report this library cannot read). fitctl
 * is stopped either way. */
static void
communicate_failed (GSubprocess *process, GError *failure, GError **error)
{
  g_subprocess_force_exit (process);
  if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, failure);
      return;
    }
  g_set_error (error, FIT_ERROR, FIT_ERROR_INTERNAL, "fitctl check's output could not be read: %s", failure->message);
  g_error_free (failure);
}

static gboolean
check_arguments (const char *document_path, const char *const *translations, const char *widths, GError **error)
{
  if (*document_path == '\0' || translations[0] == NULL || *widths == '\0')
    {
      g_set_error_literal (error, FIT_ERROR, FIT_ERROR_INVALID_ARGUMENT,
                           *document_path == '\0' ? "the document's path is empty"
                           : translations[0] == NULL ? "translations: give at least one (a gettext domain, a po/ directory, or files)"
                                                     : "widths: give at least one width");
      return FALSE;
    }
  return TRUE;
}

/**
 * fit_check_run_sync:
 * @document_path: (type filename): a layout document (JSON) whose texts name messages with
 *   `msgid` (docs/translation-check.md, "The document")
 * @translations: (array zero-terminated=1): the translation set: a gettext domain
 *   (`gtk40`), a `po/` directory, or `.po`, `.mo` and flat JSON files
 * @widths: the proposed widths as fitctl reads them: `240,360,480`, or a range
 *   `MIN:MAX:STEP` (`200:600:20`)
 * @languages: (array zero-terminated=1) (nullable): only these languages (gettext names or
 *   BCP 47: `de`, `pt_BR`, `sr-Latn`); %NULL for every language of the set
 * @categories: (array zero-terminated=1) (nullable): the size categories (`large`,
 *   `accessibilityLarge`), or `{"all", NULL}`; %NULL for the user's
 * @local: %TRUE to measure in fitctl's own process (what CI wants: no session bus), %FALSE
 *   to ask the daemon (cached and shared with every client; fitctl measures in its own
 *   process when no daemon answers)
 * @cancellable: (nullable): a #GCancellable, or %NULL; cancelling stops fitctl
 * @error: return location for a #GError
 *
 * Will every translation fit? Lays the document out in every language of the translation
 * set, at every size category and width, and returns what `fitctl check --json` reports.
 * fitctl is `$FITCTL`, else `fitctl` on `PATH`; it reads the catalogs and compares each
 * language with the source language, this library types its report.
 *
 * Errors, with fitctl's own sentence as the message:
 *
 * - #FIT_ERROR_INVALID_ARGUMENT: what fitctl refuses as usage (exit status 64: an unknown
 *   category, a bad width range), or an empty path, translation set or width list;
 * - #FIT_ERROR_INVALID_DOCUMENT: a document or translation set fitctl cannot read (exit
 *   status 1 without a report): `dialog.json:1:41: expected …`, `gtk40: no translation
 *   into "xx"; …`;
 * - `G_IO_ERROR_NOT_FOUND`: no fitctl (no `$FITCTL`, none on `PATH`), or it cannot be run;
 * - `G_DBUS_ERROR_SERVICE_UNKNOWN`: fitctl reached no engine (exit status 69), the error a
 *   call to a daemon that cannot be started gets;
 * - #FIT_ERROR_INTERNAL: fitctl failed otherwise (another status, a signal), or its output
 *   is not UTF-8 or its report not as this library reads it (fit_check_report_new_from_json());
 * - `G_IO_ERROR_CANCELLED` when @cancellable was cancelled.
 *
 * Returns: (transfer full): the report (fit_check_report_get_fits() says whether
 *   everything fits), or %NULL with @error set
 */
FitCheckReport *
fit_check_run_sync (const char *document_path, const char *const *translations, const char *widths,
                    const char *const *languages, const char *const *categories, gboolean local,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (document_path != NULL && translations != NULL && widths != NULL, NULL);
  if (!check_arguments (document_path, translations, widths, error))
    return NULL;
  g_auto (GStrv) argv = command_line (document_path, translations, widths, languages, categories, local, error);
  if (argv == NULL)
    return NULL;
  g_autoptr (GSubprocess) process = spawn ((const char *const *) argv, error);
  if (process == NULL)
    return NULL;
  g_autofree char *out = NULL, *err = NULL;
  GError *failure = NULL;
  if (!g_subprocess_communicate_utf8 (process, NULL, cancellable, &out, &err, &failure))
    {
      communicate_failed (process, failure, error);
      return NULL;
    }
  return report_from_run (process, out, err, error);
}

static void
communicated (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) task = data;
  GSubprocess *process = G_SUBPROCESS (source);
  g_autofree char *out = NULL, *err = NULL;
  GError *error = NULL;
  GError *failure = NULL;
  if (!g_subprocess_communicate_utf8_finish (process, result, &out, &err, &failure))
    {
      communicate_failed (process, failure, &error);
      g_task_return_error (task, error);
      return;
    }
  FitCheckReport *report = report_from_run (process, out, err, &error);
  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, report, g_object_unref);
}

/**
 * fit_check_run_async:
 * @document_path: (type filename): a layout document whose texts name messages
 * @translations: (array zero-terminated=1): the translation set
 * @widths: the proposed widths, `240,360,480` or `MIN:MAX:STEP`
 * @languages: (array zero-terminated=1) (nullable): only these languages, or %NULL
 * @categories: (array zero-terminated=1) (nullable): the size categories, or %NULL for the user's
 * @local: %TRUE to measure in fitctl's own process
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the report is ready
 * @user_data: data for @callback
 *
 * fit_check_run_sync() without blocking: fitctl runs while the main loop does;
 * fit_check_run_finish() gets the report.
 */
void
fit_check_run_async (const char *document_path, const char *const *translations, const char *widths,
                     const char *const *languages, const char *const *categories, gboolean local,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (document_path != NULL && translations != NULL && widths != NULL);
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fit_check_run_async);
  GError *error = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (GSubprocess) process = NULL;
  if (!check_arguments (document_path, translations, widths, &error)
      || (argv = command_line (document_path, translations, widths, languages, categories, local, &error)) == NULL
      || (process = spawn ((const char *const *) argv, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_subprocess_communicate_utf8_async (process, NULL, cancellable, communicated, g_steal_pointer (&task));
}

/**
 * fit_check_run_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the report, or %NULL with @error set (the errors of
 *   fit_check_run_sync())
 */
FitCheckReport *
fit_check_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == fit_check_run_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
