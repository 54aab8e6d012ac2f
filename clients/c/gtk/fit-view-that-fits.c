/* FitViewThatFits: a container whose children are candidate layouts, in order of preference;
 * it shows the first whose natural width fits its allocation (SwiftUI's ViewThatFits, whose
 * rules docs/swiftui-layout.md gives). The decision is fitd's: the container describes its
 * candidates to fitd (fit-gtk-document.c), asks once per content change or generation for the
 * decision's exact breakpoints, and then switches on every allocation locally, with no D-Bus
 * call in size_allocate. Until fitd answers, or when no daemon does, GTK's own measuring
 * decides. Modelled on libadwaita's AdwBreakpointBin (adw-breakpoint-bin.c): the switch is
 * made in size_allocate, and only the shown child is allocated and drawn. */
#include "fit-view-that-fits.h"
#include "fit-uniform-group-private.h"
#include "fit-gtk-private.h"

struct _FitViewThatFits {
  GtkWidget parent_instance;
  GVariant *document;          /* the candidates as last described */
  gboolean asked;              /* fitd was asked about document */
  gboolean answered;           /* and answered with its flips */
  GArray *flip_widths, *flip_candidates;
  GCancellable *cancellable;
  int shown;                   /* among the shown candidates; -1 before the first allocation */
  FitDecisionSource source;
  FitUniformGroup *group;
  gulong changed_handler;
};

enum { PROP_0, PROP_CANDIDATE_INDEX, PROP_DECISION_SOURCE, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE (FitViewThatFits, fit_view_that_fits, GTK_TYPE_WIDGET)

GType
fit_decision_source_get_type (void)
{
  static gsize type;
  if (g_once_init_enter (&type))
    {
      static const GEnumValue values[] = {
        { FIT_DECISION_SOURCE_GTK, "FIT_DECISION_SOURCE_GTK", "gtk" },
        { FIT_DECISION_SOURCE_FITD, "FIT_DECISION_SOURCE_FITD", "fitd" },
        { 0, NULL, NULL },
      };
      g_once_init_leave (&type, g_enum_register_static ("FitDecisionSource", values));
    }
  return type;
}

/* The candidates: children GTK would show (visible), in order. */
static GPtrArray *
shown_children (FitViewThatFits *self)
{
  GPtrArray *children = g_ptr_array_new ();
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self)); c; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_get_visible (c))
      g_ptr_array_add (children, c);
  return children;
}

/* The document fitd decides on: a firstFit over the candidates, on the horizontal axis only
 * (the height follows the width, as GTK's height-for-width does). */
static GVariant *
_fit_view_that_fits_describe (FitViewThatFits *self)
{
  FitGtkDocument doc;
  fit_gtk_document_init (&doc, "");
  GVariantDict root;
  g_variant_dict_init (&root, NULL);
  g_variant_dict_insert (&root, "axes", "s", "horizontal");
  int index = fit_gtk_document_add (&doc, "firstFit", -1, g_variant_dict_end (&root));
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self)); c; c = gtk_widget_get_next_sibling (c))
    fit_gtk_document_add_widget (&doc, c, index);
  GVariant *nodes = fit_gtk_document_end (&doc);
  fit_gtk_document_clear (&doc);
  return nodes;
}

GVariant *
_fit_view_that_fits_get_document (FitViewThatFits *self)
{
  return self->document;
}

static void
on_answer (FitLayoutResult *result, const GError *error, gpointer data)
{
  FitViewThatFits *self = data;
  g_clear_object (&self->cancellable);
  self->answered = error == NULL && fit_gtk_read_flips (result, "n0", self->flip_widths, self->flip_candidates);
  if (error != NULL)
    g_debug ("FitViewThatFits: fitd did not answer, GTK decides: %s", error->message);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
ask (FitViewThatFits *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_autoptr (GVariant) options = fit_gtk_layout_options (GTK_WIDGET (self), TRUE);
  fit_gtk_layout (self->document, FIT_GTK_BREAKPOINT_MAX, options, self->cancellable, on_answer, self);
}

/* Describes the candidates again and asks fitd when the description changed (a text, a
 * font, the theme, a child added): once per content change, whatever the allocations. */
static void
refresh (FitViewThatFits *self)
{
  g_autoptr (GVariant) now = _fit_view_that_fits_describe (self);
  if (self->document != NULL && self->asked && g_variant_equal (now, self->document))
    return;
  g_clear_pointer (&self->document, g_variant_unref);
  self->document = g_steal_pointer (&now);
  self->asked = TRUE;
  self->answered = FALSE;
  if (self->group != NULL)
    _fit_uniform_group_member_changed (self->group);
  else
    ask (self);
}

static void
on_connection_changed (GObject *watch, gpointer data)
{
  (void) watch;
  FitViewThatFits *self = data;
  /* New fonts or text scale: every answer is stale; the next measure asks again. */
  self->asked = FALSE;
  self->answered = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* The position shown at @width: fitd's flips (the group's for a list), else GTK's measuring. */
static int
choose (FitViewThatFits *self, GPtrArray *children, int width, FitDecisionSource *source)
{
  int n = (int) children->len;
  int candidate = -1;
  if (self->group != NULL && _fit_uniform_group_candidate_at (self->group, width, &candidate))
    *source = FIT_DECISION_SOURCE_FITD;
  else if (self->group == NULL && self->answered)
    {
      candidate = fit_gtk_candidate_at (self->flip_widths, self->flip_candidates, width);
      *source = FIT_DECISION_SOURCE_FITD;
    }
  else
    {
      *source = FIT_DECISION_SOURCE_GTK;
      for (int i = 0; i < n && candidate < 0; i++)
        {
          int nat;
          gtk_widget_measure (g_ptr_array_index (children, i), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat, NULL, NULL);
          if (nat <= width)
            candidate = i;
        }
    }
  /* Not shown at any width, or fewer candidates than a list's position: the last. */
  if (candidate < 0 || candidate >= n)
    candidate = n - 1;
  return candidate;
}

static void
fit_view_that_fits_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                            int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  FitViewThatFits *self = FIT_VIEW_THAT_FITS (widget);
  /* The candidates are described once per layout pass, in size_allocate: GTK measures a
   * widget several times per pass (each orientation, each width asked). */
  g_autoptr (GPtrArray) children = shown_children (self);
  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  if (children->len == 0)
    return;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* As narrow as the narrowest candidate allows; ideally as wide as the first wants. */
      int least = G_MAXINT;
      for (guint i = 0; i < children->len; i++)
        {
          int min, nat;
          gtk_widget_measure (g_ptr_array_index (children, i), orientation, -1, &min, &nat, NULL, NULL);
          least = MIN (least, min);
          if (i == 0)
            *natural = nat;
        }
      *minimum = least;
      *natural = MAX (*natural, least);
      return;
    }
  FitDecisionSource source;
  int candidate = for_size < 0 ? 0 : choose (self, children, for_size, &source);
  gtk_widget_measure (g_ptr_array_index (children, candidate), orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static void
fit_view_that_fits_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FitViewThatFits *self = FIT_VIEW_THAT_FITS (widget);
  refresh (self);
  g_autoptr (GPtrArray) children = shown_children (self);
  if (children->len == 0)
    return;
  FitDecisionSource source;
  int candidate = choose (self, children, width, &source);
  for (guint i = 0; i < children->len; i++)
    gtk_widget_set_child_visible (g_ptr_array_index (children, i), (int) i == candidate);
  gtk_widget_allocate (g_ptr_array_index (children, candidate), width, height, baseline, NULL);
  if (candidate != self->shown)
    {
      self->shown = candidate;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CANDIDATE_INDEX]);
    }
  if (source != self->source)
    {
      self->source = source;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DECISION_SOURCE]);
    }
}

static GtkSizeRequestMode
fit_view_that_fits_get_request_mode (GtkWidget *widget)
{
  (void) widget;
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
fit_view_that_fits_dispose (GObject *object)
{
  FitViewThatFits *self = FIT_VIEW_THAT_FITS (object);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->group != NULL)
    fit_uniform_group_remove (self->group, self);
  g_clear_signal_handler (&self->changed_handler, fit_gtk_connection_watch ());
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (fit_view_that_fits_parent_class)->dispose (object);
}

static void
fit_view_that_fits_finalize (GObject *object)
{
  FitViewThatFits *self = FIT_VIEW_THAT_FITS (object);
  g_clear_pointer (&self->document, g_variant_unref);
  g_array_unref (self->flip_widths);
  g_array_unref (self->flip_candidates);
  G_OBJECT_CLASS (fit_view_that_fits_parent_class)->finalize (object);
}

static void
fit_view_that_fits_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  FitViewThatFits *self = FIT_VIEW_THAT_FITS (object);
  switch (id)
    {
    case PROP_CANDIDATE_INDEX: g_value_set_int (value, self->shown); break;
    case PROP_DECISION_SOURCE: g_value_set_enum (value, self->source); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
fit_view_that_fits_class_init (FitViewThatFitsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = fit_view_that_fits_dispose;
  object_class->finalize = fit_view_that_fits_finalize;
  object_class->get_property = fit_view_that_fits_get_property;
  widget_class->measure = fit_view_that_fits_measure;
  widget_class->size_allocate = fit_view_that_fits_size_allocate;
  widget_class->get_request_mode = fit_view_that_fits_get_request_mode;

  /**
   * FitViewThatFits:candidate-index:
   *
   * The position, among the visible children, of the candidate shown; -1 before the
   * first allocation.
   */
  props[PROP_CANDIDATE_INDEX] = g_param_spec_int ("candidate-index", NULL, NULL, -1, G_MAXINT, -1,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * FitViewThatFits:decision-source:
   *
   * Whether fitd's breakpoints or GTK's own measuring chose the candidate shown.
   */
  props[PROP_DECISION_SOURCE] = g_param_spec_enum ("decision-source", NULL, NULL, FIT_TYPE_DECISION_SOURCE,
                                                   FIT_DECISION_SOURCE_GTK,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_css_name (widget_class, "fitviewthatfits");
}

static void
fit_view_that_fits_init (FitViewThatFits *self)
{
  self->shown = -1;
  self->flip_widths = g_array_new (FALSE, FALSE, sizeof (double));
  self->flip_candidates = g_array_new (FALSE, FALSE, sizeof (int));
  self->changed_handler = g_signal_connect (fit_gtk_connection_watch (), "changed", G_CALLBACK (on_connection_changed), self);
}

/**
 * fit_view_that_fits_new:
 *
 * Returns: a new, empty #FitViewThatFits; add candidates with fit_view_that_fits_append()
 *   (or as `<child>` elements in a GtkBuilder file), most preferred first.
 */
GtkWidget *
fit_view_that_fits_new (void)
{
  return g_object_new (FIT_TYPE_VIEW_THAT_FITS, NULL);
}

/**
 * fit_view_that_fits_append:
 * @self: a #FitViewThatFits
 * @candidate: (transfer none): a widget to show when every earlier candidate is too wide
 */
void
fit_view_that_fits_append (FitViewThatFits *self, GtkWidget *candidate)
{
  g_return_if_fail (FIT_IS_VIEW_THAT_FITS (self));
  g_return_if_fail (GTK_IS_WIDGET (candidate) && gtk_widget_get_parent (candidate) == NULL);
  gtk_widget_set_parent (candidate, GTK_WIDGET (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * fit_view_that_fits_remove:
 * @self: a #FitViewThatFits
 * @candidate: one of its candidates
 */
void
fit_view_that_fits_remove (FitViewThatFits *self, GtkWidget *candidate)
{
  g_return_if_fail (FIT_IS_VIEW_THAT_FITS (self));
  g_return_if_fail (gtk_widget_get_parent (candidate) == GTK_WIDGET (self));
  gtk_widget_unparent (candidate);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * fit_view_that_fits_get_visible_candidate:
 * @self: a #FitViewThatFits
 *
 * Returns: (transfer none) (nullable): the candidate shown, or %NULL before the first allocation
 */
GtkWidget *
fit_view_that_fits_get_visible_candidate (FitViewThatFits *self)
{
  g_return_val_if_fail (FIT_IS_VIEW_THAT_FITS (self), NULL);
  g_autoptr (GPtrArray) children = shown_children (self);
  return self->shown >= 0 && self->shown < (int) children->len ? g_ptr_array_index (children, self->shown) : NULL;
}

/**
 * fit_view_that_fits_get_candidate_index:
 * @self: a #FitViewThatFits
 *
 * Returns: the #FitViewThatFits:candidate-index
 */
int
fit_view_that_fits_get_candidate_index (FitViewThatFits *self)
{
  g_return_val_if_fail (FIT_IS_VIEW_THAT_FITS (self), -1);
  return self->shown;
}

/**
 * fit_view_that_fits_get_decision_source:
 * @self: a #FitViewThatFits
 *
 * Returns: the #FitViewThatFits:decision-source
 */
FitDecisionSource
fit_view_that_fits_get_decision_source (FitViewThatFits *self)
{
  g_return_val_if_fail (FIT_IS_VIEW_THAT_FITS (self), FIT_DECISION_SOURCE_GTK);
  return self->source;
}

/**
 * fit_view_that_fits_get_n_flips:
 * @self: a #FitViewThatFits
 *
 * Returns: how many width intervals fitd's last answer has (0 before it answers, and in a
 *   #FitUniformGroup, whose flips the group holds)
 */
guint
fit_view_that_fits_get_n_flips (FitViewThatFits *self)
{
  g_return_val_if_fail (FIT_IS_VIEW_THAT_FITS (self), 0);
  return self->answered ? self->flip_widths->len : 0;
}

/**
 * fit_view_that_fits_get_flip:
 * @self: a #FitViewThatFits
 * @index: an interval, in width order
 * @width: (out): the smallest width of the interval, exact to Pango's 1/1024 px
 * @candidate: (out): the candidate shown from that width on (-1: none)
 *
 * Returns: %TRUE when @index is one of fitd's intervals
 */
gboolean
fit_view_that_fits_get_flip (FitViewThatFits *self, guint index, double *width, int *candidate)
{
  g_return_val_if_fail (FIT_IS_VIEW_THAT_FITS (self), FALSE);
  return self->answered && fit_gtk_flip (self->flip_widths, self->flip_candidates, index, width, candidate);
}

/**
 * fit_view_that_fits_describe:
 * @self: a #FitViewThatFits
 *
 * What the container tells fitd about its candidates now: the nodes of the Layout call, in
 * the wire form `a(ssia{sv})` (protocol/README.md, "Layout"). For seeing why fitd decides as
 * it does (`fitctl fit` lays out the same nodes as a flat document).
 *
 * Returns: (transfer full): the document's nodes
 */
GVariant *
fit_view_that_fits_describe (FitViewThatFits *self)
{
  g_return_val_if_fail (FIT_IS_VIEW_THAT_FITS (self), NULL);
  return _fit_view_that_fits_describe (self);
}

void
_fit_view_that_fits_set_group (FitViewThatFits *self, FitUniformGroup *group)
{
  self->group = group;
  self->asked = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
