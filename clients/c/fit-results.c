/* Typed results of Layout and Measure, read from their wire forms (protocol/README.md,
 * "Layout": the result and "Breakpoints"; the Metrics signature under "Methods and
 * properties at a glance"). A reply is outside input: GDBusProxy has already checked its
 * signature against the interface XML, and every extras dictionary is read by key and type
 * (g_variant_lookup_value), so a key of an unexpected type reads as absent, never as garbage. */
#define FIT_CLIENT_COMPILATION
#include "fit-client.h"

#include <math.h>

/* --- FitFrame --------------------------------------------------------------------------- */

/**
 * FitFrame:
 *
 * One node's frame in a #FitLayoutResult: where it is, from the root's top-left corner, x
 * growing rightwards and y downwards whatever the layout direction (protocol/README.md,
 * "Layout", result). A node not shown (a candidate not chosen) has zeros.
 */
struct _FitFrame
{
  GObject parent_instance;
  char *id;
  gboolean visible, is_text, truncated, has_baselines;
  double x, y, width, height, scale, first_baseline, last_baseline;
  guint line_count;
  GVariant *extras; /* a{sv} */
};

G_DEFINE_FINAL_TYPE (FitFrame, fit_frame, G_TYPE_OBJECT)

static void
fit_frame_finalize (GObject *object)
{
  FitFrame *self = FIT_FRAME (object);
  g_free (self->id);
  g_clear_pointer (&self->extras, g_variant_unref);
  G_OBJECT_CLASS (fit_frame_parent_class)->finalize (object);
}

static void
fit_frame_class_init (FitFrameClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_frame_finalize;
}

static void
fit_frame_init (FitFrame *self G_GNUC_UNUSED)
{
}

/**
 * fit_frame_get_id:
 * @frame: a #FitFrame
 *
 * The node's id: the document's, `#N` for a node the nested form gave none, `ID#ROW` for a
 * forEach copy.
 *
 * Returns: (transfer none): the id
 */
const char *
fit_frame_get_id (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), NULL);
  return frame->id;
}

/**
 * fit_frame_get_visible:
 * @frame: a #FitFrame
 *
 * Returns: whether the node is shown (false: a candidate not chosen, a child absent from a
 *   threshold's arrangement; its frame is zeros)
 */
gboolean
fit_frame_get_visible (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), FALSE);
  return frame->visible;
}

/**
 * fit_frame_get_x:
 * @frame: a #FitFrame
 *
 * Returns: the left edge, from the root's left edge (px, or cells with `unit` cells)
 */
double
fit_frame_get_x (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), 0);
  return frame->x;
}

/**
 * fit_frame_get_y:
 * @frame: a #FitFrame
 *
 * Returns: the top edge, from the root's top
 */
double
fit_frame_get_y (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), 0);
  return frame->y;
}

/**
 * fit_frame_get_width:
 * @frame: a #FitFrame
 *
 * Returns: the width
 */
double
fit_frame_get_width (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), 0);
  return frame->width;
}

/**
 * fit_frame_get_height:
 * @frame: a #FitFrame
 *
 * Returns: the height
 */
double
fit_frame_get_height (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), 0);
  return frame->height;
}

/**
 * fit_frame_get_is_text:
 * @frame: a #FitFrame
 *
 * Returns: whether the node is a text (then scale, line count and truncated say how it was set)
 */
gboolean
fit_frame_get_is_text (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), FALSE);
  return frame->is_text;
}

/**
 * fit_frame_get_scale:
 * @frame: a #FitFrame
 *
 * Returns: the minimum-scale factor applied to the text (1: none)
 */
double
fit_frame_get_scale (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), 0);
  return frame->scale;
}

/**
 * fit_frame_get_line_count:
 * @frame: a #FitFrame
 *
 * Returns: the text's number of lines
 */
guint
fit_frame_get_line_count (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), 0);
  return frame->line_count;
}

/**
 * fit_frame_get_truncated:
 * @frame: a #FitFrame
 *
 * Returns: whether some of the text is not shown (ellipsized, or lines dropped)
 */
gboolean
fit_frame_get_truncated (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), FALSE);
  return frame->truncated;
}

/**
 * fit_frame_get_baselines:
 * @frame: a #FitFrame
 * @first: (out) (optional): the first line's baseline, from the frame's top
 * @last: (out) (optional): the last line's baseline, from the frame's top
 *
 * The baselines a toolkit aligns by: a text's first and last line's, a container's topmost
 * first and bottom-most last among the texts it shows.
 *
 * Returns: whether the node shows text (false: both are 0)
 */
gboolean
fit_frame_get_baselines (FitFrame *frame, double *first, double *last)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), FALSE);
  if (first != NULL)
    *first = frame->first_baseline;
  if (last != NULL)
    *last = frame->last_baseline;
  return frame->has_baselines;
}

/**
 * fit_frame_get_hidden:
 * @frame: a #FitFrame
 *
 * Returns: whether the node is laid out but not to be drawn (`hidden` in the document)
 */
gboolean
fit_frame_get_hidden (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), FALSE);
  gboolean hidden = FALSE;
  return g_variant_lookup (frame->extras, "hidden", "b", &hidden) && hidden;
}

/**
 * fit_frame_get_alignment:
 * @frame: a #FitFrame
 *
 * Returns: (nullable) (transfer none): a text's `multilineTextAlignment` (leading, center,
 *   trailing) when the document sets it, else %NULL
 */
const char *
fit_frame_get_alignment (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), NULL);
  const char *alignment = NULL;
  return g_variant_lookup (frame->extras, "alignment", "&s", &alignment) ? alignment : NULL;
}

/**
 * fit_frame_get_widget_size:
 * @frame: a #FitFrame
 * @minimum_width: (out) (optional): a GtkLabel's minimum width
 * @natural_width: (out) (optional): its natural width
 * @minimum_height: (out) (optional): its minimum height
 * @natural_height: (out) (optional): its natural height
 * @baseline: (out) (optional): its baseline
 *
 * With the `widget_sizes` option, the size a GtkLabel showing the text at the frame's width
 * requests (whole px, as MeasureLabel gives it).
 *
 * Returns: whether the frame has it (a shown text, `widget_sizes` asked); false leaves the
 *   outputs 0
 */
gboolean
fit_frame_get_widget_size (FitFrame *frame, int *minimum_width, int *natural_width,
                           int *minimum_height, int *natural_height, int *baseline)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), FALSE);
  gint32 v[5] = { 0, 0, 0, 0, 0 };
  gboolean found = g_variant_lookup (frame->extras, "widget", "(iiiii)", &v[0], &v[1], &v[2],
                                     &v[3], &v[4]);
  int *out[5] = { minimum_width, natural_width, minimum_height, natural_height, baseline };
  for (guint i = 0; i < G_N_ELEMENTS (out); i++)
    if (out[i] != NULL)
      *out[i] = v[i];
  return found;
}

/**
 * fit_frame_get_extras:
 * @frame: a #FitFrame
 *
 * The frame's extras as the daemon sent them, for keys this library does not read (a newer
 * daemon may add some; docs/interface-versioning.md).
 *
 * Returns: (transfer none): an `a{sv}`
 */
GVariant *
fit_frame_get_extras (FitFrame *frame)
{
  g_return_val_if_fail (FIT_IS_FRAME (frame), NULL);
  return frame->extras;
}

/* --- FitDecision ------------------------------------------------------------------------ */

/**
 * FitDecision:
 *
 * A decision the layout took: its node, its kind (firstFit, uniformFit, threshold, fitting,
 * scaleGroup) and its outcome, whose parts depend on the kind (protocol/README.md, "Layout").
 */
struct _FitDecision
{
  GObject parent_instance;
  char *id, *kind;
  guint node_index;
  GVariant *outcome; /* a{sv} */
};

G_DEFINE_FINAL_TYPE (FitDecision, fit_decision, G_TYPE_OBJECT)

static void
fit_decision_finalize (GObject *object)
{
  FitDecision *self = FIT_DECISION (object);
  g_free (self->id);
  g_free (self->kind);
  g_clear_pointer (&self->outcome, g_variant_unref);
  G_OBJECT_CLASS (fit_decision_parent_class)->finalize (object);
}

static void
fit_decision_class_init (FitDecisionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_decision_finalize;
}

static void
fit_decision_init (FitDecision *self G_GNUC_UNUSED)
{
}

/**
 * fit_decision_get_id:
 * @decision: a #FitDecision
 *
 * Returns: (transfer none): the decision node's id
 */
const char *
fit_decision_get_id (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), NULL);
  return decision->id;
}

/**
 * fit_decision_get_node_index:
 * @decision: a #FitDecision
 *
 * Returns: the node's index among the result's frames
 */
guint
fit_decision_get_node_index (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), 0);
  return decision->node_index;
}

/**
 * fit_decision_get_kind:
 * @decision: a #FitDecision
 *
 * Returns: (transfer none): `firstFit`, `uniformFit`, `threshold`, `fitting` or `scaleGroup`
 */
const char *
fit_decision_get_kind (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), NULL);
  return decision->kind;
}

/**
 * fit_decision_get_candidate:
 * @decision: a #FitDecision
 *
 * Returns: the position of the candidate shown (firstFit, uniformFit), or -1 for the other kinds
 */
int
fit_decision_get_candidate (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), -1);
  guint32 candidate;
  if (!g_variant_lookup (decision->outcome, "candidate", "u", &candidate) || candidate > G_MAXINT)
    return -1;
  return (int) candidate;
}

/**
 * fit_decision_get_candidate_id:
 * @decision: a #FitDecision
 *
 * Returns: (nullable) (transfer none): the id of the candidate a firstFit shows, else %NULL
 */
const char *
fit_decision_get_candidate_id (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), NULL);
  const char *id = NULL;
  return g_variant_lookup (decision->outcome, "candidate_id", "&s", &id) ? id : NULL;
}

/**
 * fit_decision_get_axis:
 * @decision: a #FitDecision
 *
 * Returns: (nullable) (transfer none): a threshold's arrangement, `horizontal` or
 *   `vertical`, else %NULL
 */
const char *
fit_decision_get_axis (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), NULL);
  const char *axis = NULL;
  return g_variant_lookup (decision->outcome, "axis", "&s", &axis) ? axis : NULL;
}

/**
 * fit_decision_get_length:
 * @decision: a #FitDecision
 *
 * Returns: the length a fitting fitted its children to, or -1 for the other kinds
 */
double
fit_decision_get_length (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), -1);
  double length;
  return g_variant_lookup (decision->outcome, "length", "d", &length) ? length : -1;
}

/**
 * fit_decision_get_scale:
 * @decision: a #FitDecision
 *
 * Returns: the one factor a scaleGroup applied to every member, or -1 for the other kinds
 */
double
fit_decision_get_scale (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), -1);
  double scale;
  return g_variant_lookup (decision->outcome, "scale", "d", &scale) ? scale : -1;
}

/**
 * fit_decision_get_outcome:
 * @decision: a #FitDecision
 *
 * Returns: (transfer none): the outcome as the daemon sent it, an `a{sv}`
 */
GVariant *
fit_decision_get_outcome (FitDecision *decision)
{
  g_return_val_if_fail (FIT_IS_DECISION (decision), NULL);
  return decision->outcome;
}

/* --- FitInterval ------------------------------------------------------------------------ */

/**
 * FitInterval:
 *
 * One outcome of a decision over a stretch of widths (protocol/README.md, "Breakpoints"):
 * the grid widths it holds at, both included, what is shown there, and the exact width it
 * begins at (`breakpoint_flips`), in px and in sp.
 */
struct _FitInterval
{
  GObject parent_instance;
  double from, to, flip, flip_sp;
  int candidate;
  char *axis;
};

G_DEFINE_FINAL_TYPE (FitInterval, fit_interval, G_TYPE_OBJECT)

static void
fit_interval_finalize (GObject *object)
{
  g_free (FIT_INTERVAL (object)->axis);
  G_OBJECT_CLASS (fit_interval_parent_class)->finalize (object);
}

static void
fit_interval_class_init (FitIntervalClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_interval_finalize;
}

static void
fit_interval_init (FitInterval *self G_GNUC_UNUSED)
{
}

/**
 * fit_interval_get_from:
 * @interval: a #FitInterval
 *
 * Returns: the first grid width (1 px, or 1 cell) with this outcome
 */
double
fit_interval_get_from (FitInterval *interval)
{
  g_return_val_if_fail (FIT_IS_INTERVAL (interval), 0);
  return interval->from;
}

/**
 * fit_interval_get_to:
 * @interval: a #FitInterval
 *
 * Returns: the last grid width with this outcome
 */
double
fit_interval_get_to (FitInterval *interval)
{
  g_return_val_if_fail (FIT_IS_INTERVAL (interval), 0);
  return interval->to;
}

/**
 * fit_interval_get_candidate:
 * @interval: a #FitInterval
 *
 * Returns: the candidate shown (firstFit, uniformFit); -1 where the decision is not shown,
 *   and for a threshold
 */
int
fit_interval_get_candidate (FitInterval *interval)
{
  g_return_val_if_fail (FIT_IS_INTERVAL (interval), -1);
  return interval->candidate;
}

/**
 * fit_interval_get_axis:
 * @interval: a #FitInterval
 *
 * Returns: (nullable) (transfer none): a shown threshold's arrangement, else %NULL
 */
const char *
fit_interval_get_axis (FitInterval *interval)
{
  g_return_val_if_fail (FIT_IS_INTERVAL (interval), NULL);
  return interval->axis;
}

/**
 * fit_interval_get_flip:
 * @interval: a #FitInterval
 *
 * The exact flip: the smallest width with this outcome, to Pango's unit (1/1024 px),
 * between the previous interval's `to` and this one's `from`; the range's minimum for the
 * first interval.
 *
 * Returns: the width, or -1 where it is not known (cells; the search's budget ran out; a
 *   daemon older than `breakpoint_flips`)
 */
double
fit_interval_get_flip (FitInterval *interval)
{
  g_return_val_if_fail (FIT_IS_INTERVAL (interval), -1);
  return interval->flip;
}

/**
 * fit_interval_get_flip_sp:
 * @interval: a #FitInterval
 *
 * The exact flip in sp, libadwaita's unit that follows the text scale: px divided by the
 * text scale the layout was measured at (`breakpoint_text_scale`).
 *
 * Returns: the width in sp, or -1 where it is not known
 */
double
fit_interval_get_flip_sp (FitInterval *interval)
{
  g_return_val_if_fail (FIT_IS_INTERVAL (interval), -1);
  return interval->flip_sp;
}

/* --- FitBreakpoints --------------------------------------------------------------------- */

/**
 * FitBreakpoints:
 *
 * What the `breakpoints` option found (protocol/README.md, "Breakpoints"): the root's
 * min- and max-content widths, and per discrete decision (firstFit, uniformFit,
 * threshold), the widths over which each of its outcomes holds.
 */
struct _FitBreakpoints
{
  GObject parent_instance;
  double min_content_width, max_content_width, range_min, range_max, text_scale;
  gboolean truncated;
  GStrv decision_ids;
  GPtrArray *intervals; /* per decision, in decision_ids' order: GPtrArray of FitInterval */
};

G_DEFINE_FINAL_TYPE (FitBreakpoints, fit_breakpoints, G_TYPE_OBJECT)

static void
fit_breakpoints_finalize (GObject *object)
{
  FitBreakpoints *self = FIT_BREAKPOINTS (object);
  g_strfreev (self->decision_ids);
  g_clear_pointer (&self->intervals, g_ptr_array_unref);
  G_OBJECT_CLASS (fit_breakpoints_parent_class)->finalize (object);
}

static void
fit_breakpoints_class_init (FitBreakpointsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_breakpoints_finalize;
}

static void
fit_breakpoints_init (FitBreakpoints *self G_GNUC_UNUSED)
{
}

/**
 * fit_breakpoints_get_min_content_width:
 * @breakpoints: a #FitBreakpoints
 *
 * Returns: the root's width when proposed 0 (SwiftUI's minimum, CSS's min-content)
 */
double
fit_breakpoints_get_min_content_width (FitBreakpoints *breakpoints)
{
  g_return_val_if_fail (FIT_IS_BREAKPOINTS (breakpoints), 0);
  return breakpoints->min_content_width;
}

/**
 * fit_breakpoints_get_max_content_width:
 * @breakpoints: a #FitBreakpoints
 *
 * Returns: the root's width proposed nothing (its ideal, CSS's max-content)
 */
double
fit_breakpoints_get_max_content_width (FitBreakpoints *breakpoints)
{
  g_return_val_if_fail (FIT_IS_BREAKPOINTS (breakpoints), 0);
  return breakpoints->max_content_width;
}

/**
 * fit_breakpoints_get_range:
 * @breakpoints: a #FitBreakpoints
 * @min: (out) (optional): the smallest width searched
 * @max: (out) (optional): the largest
 *
 * The range searched, as asked.
 */
void
fit_breakpoints_get_range (FitBreakpoints *breakpoints, double *min, double *max)
{
  g_return_if_fail (FIT_IS_BREAKPOINTS (breakpoints));
  if (min != NULL)
    *min = breakpoints->range_min;
  if (max != NULL)
    *max = breakpoints->range_max;
}

/**
 * fit_breakpoints_get_text_scale:
 * @breakpoints: a #FitBreakpoints
 *
 * Returns: the text scale the layout was measured at (px ÷ this = sp), or -1 when the daemon
 *   did not say
 */
double
fit_breakpoints_get_text_scale (FitBreakpoints *breakpoints)
{
  g_return_val_if_fail (FIT_IS_BREAKPOINTS (breakpoints), -1);
  return breakpoints->text_scale;
}

/**
 * fit_breakpoints_get_truncated:
 * @breakpoints: a #FitBreakpoints
 *
 * Returns: whether the answer is partial (decisions left out past the interval cap, or the
 *   search's budget ran out before the range's end)
 */
gboolean
fit_breakpoints_get_truncated (FitBreakpoints *breakpoints)
{
  g_return_val_if_fail (FIT_IS_BREAKPOINTS (breakpoints), FALSE);
  return breakpoints->truncated;
}

/**
 * fit_breakpoints_get_decision_ids:
 * @breakpoints: a #FitBreakpoints
 *
 * Returns: (transfer none) (array zero-terminated=1): the ids of the decisions, in document order
 */
const char *const *
fit_breakpoints_get_decision_ids (FitBreakpoints *breakpoints)
{
  g_return_val_if_fail (FIT_IS_BREAKPOINTS (breakpoints), NULL);
  return (const char *const *) breakpoints->decision_ids;
}

/**
 * fit_breakpoints_get_intervals:
 * @breakpoints: a #FitBreakpoints
 * @decision_id: a decision's id
 *
 * Returns: (nullable) (transfer none) (element-type FitInterval): the decision's outcomes
 *   in width order, or %NULL when no decision has that id
 */
GPtrArray *
fit_breakpoints_get_intervals (FitBreakpoints *breakpoints, const char *decision_id)
{
  g_return_val_if_fail (FIT_IS_BREAKPOINTS (breakpoints), NULL);
  g_return_val_if_fail (decision_id != NULL, NULL);
  for (guint i = 0; breakpoints->decision_ids[i] != NULL; i++)
    if (g_str_equal (breakpoints->decision_ids[i], decision_id))
      return g_ptr_array_index (breakpoints->intervals, i);
  return NULL;
}

/* The root frame's breakpoint extras, or NULL when it has none (the option was not given). */
static FitBreakpoints *
breakpoints_from_extras (GVariant *extras)
{
  g_autoptr (GVariant) list = g_variant_lookup_value (extras, "breakpoints", G_VARIANT_TYPE ("a(sa(ddis))"));
  if (list == NULL)
    return NULL;
  FitBreakpoints *self = g_object_new (FIT_TYPE_BREAKPOINTS, NULL);
  g_variant_lookup (extras, "min_content_width", "d", &self->min_content_width);
  g_variant_lookup (extras, "max_content_width", "d", &self->max_content_width);
  g_variant_lookup (extras, "breakpoint_range", "(dd)", &self->range_min, &self->range_max);
  g_variant_lookup (extras, "breakpoints_truncated", "b", &self->truncated);
  self->text_scale = -1;
  g_variant_lookup (extras, "breakpoint_text_scale", "d", &self->text_scale);
  /* Flips come in the order of `breakpoints`, one list per decision; matched by position
   * and id, so that a reply where they disagree reads as "not known", not as another
   * decision's widths. */
  g_autoptr (GVariant) flips = g_variant_lookup_value (extras, "breakpoint_flips", G_VARIANT_TYPE ("a(sad)"));
  gsize n = g_variant_n_children (list);
  gsize n_flips = flips != NULL ? g_variant_n_children (flips) : 0;
  GStrvBuilder *ids = g_strv_builder_new ();
  self->intervals = g_ptr_array_new_full (n, (GDestroyNotify) g_ptr_array_unref);
  for (gsize i = 0; i < n; i++)
    {
      const char *id;
      g_autoptr (GVariant) entries = NULL;
      g_variant_get_child (list, i, "(&s@a(ddis))", &id, &entries);
      g_strv_builder_add (ids, id);
      g_autoptr (GVariant) exact = NULL;
      if (i < n_flips)
        {
          const char *flip_id;
          g_variant_get_child (flips, i, "(&s@ad)", &flip_id, &exact);
          if (!g_str_equal (flip_id, id))
            g_clear_pointer (&exact, g_variant_unref);
        }
      gsize n_exact = 0;
      const double *widths = exact != NULL ? g_variant_get_fixed_array (exact, &n_exact, sizeof (double)) : NULL;
      gsize n_entries = g_variant_n_children (entries);
      GPtrArray *intervals = g_ptr_array_new_full (n_entries, g_object_unref);
      for (gsize j = 0; j < n_entries; j++)
        {
          FitInterval *interval = g_object_new (FIT_TYPE_INTERVAL, NULL);
          const char *axis;
          gint32 candidate;
          g_variant_get_child (entries, j, "(ddi&s)", &interval->from, &interval->to, &candidate, &axis);
          interval->candidate = candidate;
          interval->axis = axis[0] != '\0' ? g_strdup (axis) : NULL;
          interval->flip = j < n_exact && widths[j] >= 0 ? widths[j] : -1;
          interval->flip_sp = interval->flip >= 0 && self->text_scale > 0 ? interval->flip / self->text_scale : -1;
          g_ptr_array_add (intervals, interval);
        }
      g_ptr_array_add (self->intervals, intervals);
    }
  self->decision_ids = g_strv_builder_end (ids);
  g_strv_builder_unref (ids);
  return self;
}

/* --- FitLayoutResult -------------------------------------------------------------------- */

/**
 * FitLayoutResult:
 *
 * A layout: the root's size, one #FitFrame per node in document order (a forEach's copies
 * in its expansion's order), the #FitDecision objects taken, and with the `breakpoints`
 * option the #FitBreakpoints.
 */
struct _FitLayoutResult
{
  GObject parent_instance;
  double width, height;
  GPtrArray *frames, *decisions;
  GHashTable *frame_by_id, *decision_by_id; /* borrowed keys and values */
  gboolean truncated;
  guint64 generation;
  FitBreakpoints *breakpoints;
};

G_DEFINE_FINAL_TYPE (FitLayoutResult, fit_layout_result, G_TYPE_OBJECT)

static void
fit_layout_result_finalize (GObject *object)
{
  FitLayoutResult *self = FIT_LAYOUT_RESULT (object);
  g_clear_pointer (&self->frame_by_id, g_hash_table_unref);
  g_clear_pointer (&self->decision_by_id, g_hash_table_unref);
  g_clear_pointer (&self->frames, g_ptr_array_unref);
  g_clear_pointer (&self->decisions, g_ptr_array_unref);
  g_clear_object (&self->breakpoints);
  G_OBJECT_CLASS (fit_layout_result_parent_class)->finalize (object);
}

static void
fit_layout_result_class_init (FitLayoutResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_layout_result_finalize;
}

static void
fit_layout_result_init (FitLayoutResult *self G_GNUC_UNUSED)
{
}

static gboolean
reply_is (GVariant *value, const char *type, const char *what, GError **error)
{
  if (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE (type)))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the daemon's reply: %s is not %s but %s",
               what, type, value != NULL ? g_variant_get_type_string (value) : "missing");
  return FALSE;
}

/**
 * fit_layout_result_new_from_reply:
 * @size: the reply's `(dd)` size
 * @frames: its `a(sbddddbdubbdda{sv})` frames
 * @decisions: its `a(susa{sv})` decisions
 * @truncated: its truncated flag
 * @generation: its generation
 * @error: return location for a #GError
 *
 * The typed result of a Layout reply's out arguments, as fit_client_call_layout_finish()
 * returns them (for programs that make the call themselves).
 *
 * Returns: (transfer full): the result, or %NULL with @error set (G_IO_ERROR_INVALID_DATA)
 *   when an argument is not of its type
 */
FitLayoutResult *
fit_layout_result_new_from_reply (GVariant *size, GVariant *frames, GVariant *decisions,
                                  gboolean truncated, guint64 generation, GError **error)
{
  if (!reply_is (size, "(dd)", "size", error)
      || !reply_is (frames, "a(sbddddbdubbdda{sv})", "frames", error)
      || !reply_is (decisions, "a(susa{sv})", "decisions", error))
    return NULL;
  FitLayoutResult *self = g_object_new (FIT_TYPE_LAYOUT_RESULT, NULL);
  g_variant_get (size, "(dd)", &self->width, &self->height);
  self->truncated = truncated;
  self->generation = generation;
  gsize n = g_variant_n_children (frames);
  self->frames = g_ptr_array_new_full (n, g_object_unref);
  self->frame_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < n; i++)
    {
      FitFrame *frame = g_object_new (FIT_TYPE_FRAME, NULL);
      g_variant_get_child (frames, i, "(sbddddbdubbdd@a{sv})", &frame->id, &frame->visible, &frame->x,
                           &frame->y, &frame->width, &frame->height, &frame->is_text, &frame->scale,
                           &frame->line_count, &frame->truncated, &frame->has_baselines,
                           &frame->first_baseline, &frame->last_baseline, &frame->extras);
      g_ptr_array_add (self->frames, frame);
      /* The first frame of an id wins: ids are unique in a valid document. */
      if (!g_hash_table_contains (self->frame_by_id, frame->id))
        g_hash_table_insert (self->frame_by_id, frame->id, frame);
    }
  /* Breakpoints are on the root's frame only, the first. */
  if (n > 0)
    self->breakpoints = breakpoints_from_extras (FIT_FRAME (g_ptr_array_index (self->frames, 0))->extras);
  n = g_variant_n_children (decisions);
  self->decisions = g_ptr_array_new_full (n, g_object_unref);
  self->decision_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < n; i++)
    {
      FitDecision *decision = g_object_new (FIT_TYPE_DECISION, NULL);
      g_variant_get_child (decisions, i, "(sus@a{sv})", &decision->id, &decision->node_index,
                           &decision->kind, &decision->outcome);
      g_ptr_array_add (self->decisions, decision);
      if (!g_hash_table_contains (self->decision_by_id, decision->id))
        g_hash_table_insert (self->decision_by_id, decision->id, decision);
    }
  return self;
}

/**
 * fit_layout_result_get_width:
 * @result: a #FitLayoutResult
 *
 * Returns: the root's width
 */
double
fit_layout_result_get_width (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), 0);
  return result->width;
}

/**
 * fit_layout_result_get_height:
 * @result: a #FitLayoutResult
 *
 * Returns: the root's height
 */
double
fit_layout_result_get_height (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), 0);
  return result->height;
}

/**
 * fit_layout_result_get_frames:
 * @result: a #FitLayoutResult
 *
 * Returns: (transfer none) (element-type FitFrame): every node's frame, in document order
 */
GPtrArray *
fit_layout_result_get_frames (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), NULL);
  return result->frames;
}

/**
 * fit_layout_result_get_frame:
 * @result: a #FitLayoutResult
 * @id: a node's id (`ID#ROW` for a forEach's copies)
 *
 * Returns: (nullable) (transfer none): the node's frame, or %NULL when no node has that id
 */
FitFrame *
fit_layout_result_get_frame (FitLayoutResult *result, const char *id)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), NULL);
  g_return_val_if_fail (id != NULL, NULL);
  return g_hash_table_lookup (result->frame_by_id, id);
}

/**
 * fit_layout_result_get_decisions:
 * @result: a #FitLayoutResult
 *
 * Returns: (transfer none) (element-type FitDecision): the decisions of the nodes shown
 */
GPtrArray *
fit_layout_result_get_decisions (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), NULL);
  return result->decisions;
}

/**
 * fit_layout_result_get_decision:
 * @result: a #FitLayoutResult
 * @id: the decision node's id
 *
 * Returns: (nullable) (transfer none): its decision, or %NULL when no shown decision node
 *   has that id
 */
FitDecision *
fit_layout_result_get_decision (FitLayoutResult *result, const char *id)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), NULL);
  g_return_val_if_fail (id != NULL, NULL);
  return g_hash_table_lookup (result->decision_by_id, id);
}

/**
 * fit_layout_result_get_truncated:
 * @result: a #FitLayoutResult
 *
 * Returns: whether any shown text is truncated
 */
gboolean
fit_layout_result_get_truncated (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), FALSE);
  return result->truncated;
}

/**
 * fit_layout_result_get_generation:
 * @result: a #FitLayoutResult
 *
 * Returns: the daemon's generation the layout was computed under (a later
 *   #FitClient::generation-changed makes it stale)
 */
guint64
fit_layout_result_get_generation (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), 0);
  return result->generation;
}

/**
 * fit_layout_result_get_breakpoints:
 * @result: a #FitLayoutResult
 *
 * Returns: (nullable) (transfer none): the breakpoints, or %NULL without the `breakpoints` option
 */
FitBreakpoints *
fit_layout_result_get_breakpoints (FitLayoutResult *result)
{
  g_return_val_if_fail (FIT_IS_LAYOUT_RESULT (result), NULL);
  return result->breakpoints;
}

/* --- FitLine, FitMetrics ---------------------------------------------------------------- */

/**
 * FitLine:
 *
 * One line of a measured text (with the `lines` option).
 */
struct _FitLine
{
  GObject parent_instance;
  double width, ascent, descent, baseline;
  guint start, length;
  char *text;
  gboolean ellipsized;
};

G_DEFINE_FINAL_TYPE (FitLine, fit_line, G_TYPE_OBJECT)

static void
fit_line_finalize (GObject *object)
{
  g_free (FIT_LINE (object)->text);
  G_OBJECT_CLASS (fit_line_parent_class)->finalize (object);
}

static void
fit_line_class_init (FitLineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_line_finalize;
}

static void
fit_line_init (FitLine *self G_GNUC_UNUSED)
{
}

/**
 * fit_line_get_width:
 * @line: a #FitLine
 *
 * Returns: the line's width
 */
double
fit_line_get_width (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), 0);
  return line->width;
}

/**
 * fit_line_get_ascent:
 * @line: a #FitLine
 *
 * Returns: the line's ascent
 */
double
fit_line_get_ascent (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), 0);
  return line->ascent;
}

/**
 * fit_line_get_descent:
 * @line: a #FitLine
 *
 * Returns: the line's descent
 */
double
fit_line_get_descent (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), 0);
  return line->descent;
}

/**
 * fit_line_get_baseline:
 * @line: a #FitLine
 *
 * Returns: the line's baseline, from the text's top
 */
double
fit_line_get_baseline (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), 0);
  return line->baseline;
}

/**
 * fit_line_get_start:
 * @line: a #FitLine
 *
 * Returns: where the line starts in the text, in Unicode code points
 */
guint
fit_line_get_start (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), 0);
  return line->start;
}

/**
 * fit_line_get_length:
 * @line: a #FitLine
 *
 * Returns: the line's length in the text, in Unicode code points
 */
guint
fit_line_get_length (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), 0);
  return line->length;
}

/**
 * fit_line_get_text:
 * @line: a #FitLine
 *
 * Returns: (transfer none): the line's text as shown ("…" where ellipsized)
 */
const char *
fit_line_get_text (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), NULL);
  return line->text;
}

/**
 * fit_line_get_ellipsized:
 * @line: a #FitLine
 *
 * Returns: whether the line is ellipsized
 */
gboolean
fit_line_get_ellipsized (FitLine *line)
{
  g_return_val_if_fail (FIT_IS_LINE (line), FALSE);
  return line->ellipsized;
}

/**
 * FitMetrics:
 *
 * A measured text (Measure's `Metrics`, protocol/README.md).
 */
struct _FitMetrics
{
  GObject parent_instance;
  double width, height, baseline;
  guint line_count;
  gboolean ellipsized, truncated;
  GStrv fonts;
  GPtrArray *lines;
  guint64 generation;
};

G_DEFINE_FINAL_TYPE (FitMetrics, fit_metrics, G_TYPE_OBJECT)

static void
fit_metrics_finalize (GObject *object)
{
  FitMetrics *self = FIT_METRICS (object);
  g_strfreev (self->fonts);
  g_clear_pointer (&self->lines, g_ptr_array_unref);
  G_OBJECT_CLASS (fit_metrics_parent_class)->finalize (object);
}

static void
fit_metrics_class_init (FitMetricsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fit_metrics_finalize;
}

static void
fit_metrics_init (FitMetrics *self G_GNUC_UNUSED)
{
}

/**
 * fit_metrics_new_from_reply:
 * @metrics: a Measure reply's `(dddubbasa(dddduusb)t)` Metrics
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the typed metrics, or %NULL with @error set
 *   (G_IO_ERROR_INVALID_DATA) when @metrics is not of that type
 */
FitMetrics *
fit_metrics_new_from_reply (GVariant *metrics, GError **error)
{
  if (!reply_is (metrics, "(dddubbasa(dddduusb)t)", "metrics", error))
    return NULL;
  FitMetrics *self = g_object_new (FIT_TYPE_METRICS, NULL);
  g_autoptr (GVariant) lines = NULL;
  g_variant_get (metrics, "(dddubb^as@a(dddduusb)t)", &self->width, &self->height, &self->baseline,
                 &self->line_count, &self->ellipsized, &self->truncated, &self->fonts, &lines,
                 &self->generation);
  gsize n = g_variant_n_children (lines);
  self->lines = g_ptr_array_new_full (n, g_object_unref);
  for (gsize i = 0; i < n; i++)
    {
      FitLine *line = g_object_new (FIT_TYPE_LINE, NULL);
      g_variant_get_child (lines, i, "(dddduusb)", &line->width, &line->ascent, &line->descent,
                           &line->baseline, &line->start, &line->length, &line->text, &line->ellipsized);
      g_ptr_array_add (self->lines, line);
    }
  return self;
}

/**
 * fit_metrics_get_width:
 * @metrics: a #FitMetrics
 *
 * Returns: the width (px, or cells)
 */
double
fit_metrics_get_width (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), 0);
  return metrics->width;
}

/**
 * fit_metrics_get_height:
 * @metrics: a #FitMetrics
 *
 * Returns: the height
 */
double
fit_metrics_get_height (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), 0);
  return metrics->height;
}

/**
 * fit_metrics_get_baseline:
 * @metrics: a #FitMetrics
 *
 * Returns: the first line's baseline, from the top
 */
double
fit_metrics_get_baseline (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), 0);
  return metrics->baseline;
}

/**
 * fit_metrics_get_line_count:
 * @metrics: a #FitMetrics
 *
 * Returns: the number of lines
 */
guint
fit_metrics_get_line_count (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), 0);
  return metrics->line_count;
}

/**
 * fit_metrics_get_ellipsized:
 * @metrics: a #FitMetrics
 *
 * Returns: whether "…" replaced some text
 */
gboolean
fit_metrics_get_ellipsized (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), FALSE);
  return metrics->ellipsized;
}

/**
 * fit_metrics_get_truncated:
 * @metrics: a #FitMetrics
 *
 * Returns: whether some text is not shown (ellipsized, or lines dropped by `max_lines`)
 */
gboolean
fit_metrics_get_truncated (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), FALSE);
  return metrics->truncated;
}

/**
 * fit_metrics_get_fonts:
 * @metrics: a #FitMetrics
 *
 * Returns: (transfer none) (array zero-terminated=1): the font families that drew the
 *   text, primary first
 */
const char *const *
fit_metrics_get_fonts (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), NULL);
  return (const char *const *) metrics->fonts;
}

/**
 * fit_metrics_get_lines:
 * @metrics: a #FitMetrics
 *
 * Returns: (transfer none) (element-type FitLine): the lines, with the `lines` option (else empty)
 */
GPtrArray *
fit_metrics_get_lines (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), NULL);
  return metrics->lines;
}

/**
 * fit_metrics_get_generation:
 * @metrics: a #FitMetrics
 *
 * Returns: the daemon's generation the text was measured under
 */
guint64
fit_metrics_get_generation (FitMetrics *metrics)
{
  g_return_val_if_fail (FIT_IS_METRICS (metrics), 0);
  return metrics->generation;
}
