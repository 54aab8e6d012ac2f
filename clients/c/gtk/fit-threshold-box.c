/* FitThresholdBox: its children in a row below a size category, in a column from it on
 * (seed 002; fitd's `threshold` node). The category in force is the user's, which fitd
 * derives from the text scale (docs: Dynamic Type categories), so the box asks fitd once per
 * generation (a text scale or font change) and per change of its threshold; no width enters
 * the decision. Until fitd answers, or with no daemon, it stays a row: GTK's own layout. */
#include "fit-threshold-box.h"
#include "fit-gtk-private.h"

struct _FitThresholdBox {
  GtkWidget parent_instance;
  char *category;
  int spacing;
  gboolean asked;
  FitDecisionSource source;
  GCancellable *cancellable;
  gulong changed_handler;
};

enum { PROP_0, PROP_CATEGORY, PROP_SPACING, PROP_ORIENTATION, PROP_DECISION_SOURCE, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE (FitThresholdBox, fit_threshold_box, GTK_TYPE_WIDGET)

static GtkBoxLayout *
box_layout (FitThresholdBox *self)
{
  return GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));
}

static void
set_orientation (FitThresholdBox *self, GtkOrientation orientation, FitDecisionSource source)
{
  GtkOrientable *layout = GTK_ORIENTABLE (box_layout (self));
  if (gtk_orientable_get_orientation (layout) != orientation)
    {
      gtk_orientable_set_orientation (layout, orientation);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ORIENTATION]);
    }
  if (self->source != source)
    {
      self->source = source;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DECISION_SOURCE]);
    }
}

static void
on_answer (FitLayoutResult *result, const GError *error, gpointer data)
{
  FitThresholdBox *self = data;
  g_clear_object (&self->cancellable);
  if (error != NULL)
    {
      g_debug ("FitThresholdBox: fitd did not answer, it stays a row: %s", error->message);
      set_orientation (self, GTK_ORIENTATION_HORIZONTAL, FIT_DECISION_SOURCE_GTK);
      return;
    }
  /* The root is the threshold, "n0"; its decision says the arrangement. */
  FitDecision *decision = fit_layout_result_get_decision (result, "n0");
  const char *axis = decision ? fit_decision_get_axis (decision) : NULL;
  if (axis != NULL)
    set_orientation (self, g_str_equal (axis, "vertical") ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL,
                     FIT_DECISION_SOURCE_FITD);
}

/* The decision depends on the category alone: the children are sent as their sizes. */
static void
ask (FitThresholdBox *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->asked = TRUE;
  FitGtkDocument doc;
  fit_gtk_document_init (&doc, "");
  GVariantDict root;
  g_variant_dict_init (&root, NULL);
  g_variant_dict_insert (&root, "category", "s", self->category);
  g_variant_dict_insert (&root, "spacing", "d", (double) self->spacing);
  int index = fit_gtk_document_add (&doc, "threshold", -1, g_variant_dict_end (&root));
  GVariantDict size;
  g_variant_dict_init (&size, NULL);
  g_variant_dict_insert (&size, "width", "d", 1.0);
  g_variant_dict_insert (&size, "height", "d", 1.0);
  fit_gtk_document_add (&doc, "image", index, g_variant_dict_end (&size));
  g_autoptr (GVariant) nodes = fit_gtk_document_end (&doc);
  fit_gtk_document_clear (&doc);
  self->cancellable = g_cancellable_new ();
  g_autoptr (GVariant) options = fit_gtk_layout_options (GTK_WIDGET (self), FALSE);
  fit_gtk_layout (nodes, 1.0, options, self->cancellable, on_answer, self);
}

static void
on_connection_changed (GObject *watch, gpointer data)
{
  (void) watch;
  ask (FIT_THRESHOLD_BOX (data));
}

static void
fit_threshold_box_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (fit_threshold_box_parent_class)->root (widget);
  FitThresholdBox *self = FIT_THRESHOLD_BOX (widget);
  if (!self->asked)
    ask (self);
}

static void
fit_threshold_box_dispose (GObject *object)
{
  FitThresholdBox *self = FIT_THRESHOLD_BOX (object);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_signal_handler (&self->changed_handler, fit_gtk_connection_watch ());
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (fit_threshold_box_parent_class)->dispose (object);
}

static void
fit_threshold_box_finalize (GObject *object)
{
  g_free (FIT_THRESHOLD_BOX (object)->category);
  G_OBJECT_CLASS (fit_threshold_box_parent_class)->finalize (object);
}

static void
fit_threshold_box_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  FitThresholdBox *self = FIT_THRESHOLD_BOX (object);
  switch (id)
    {
    case PROP_CATEGORY: g_value_set_string (value, self->category); break;
    case PROP_SPACING: g_value_set_int (value, self->spacing); break;
    case PROP_ORIENTATION: g_value_set_enum (value, fit_threshold_box_get_orientation (self)); break;
    case PROP_DECISION_SOURCE: g_value_set_enum (value, self->source); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
fit_threshold_box_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  FitThresholdBox *self = FIT_THRESHOLD_BOX (object);
  switch (id)
    {
    case PROP_CATEGORY: fit_threshold_box_set_category (self, g_value_get_string (value)); break;
    case PROP_SPACING: fit_threshold_box_set_spacing (self, g_value_get_int (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
fit_threshold_box_class_init (FitThresholdBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = fit_threshold_box_dispose;
  object_class->finalize = fit_threshold_box_finalize;
  object_class->get_property = fit_threshold_box_get_property;
  object_class->set_property = fit_threshold_box_set_property;
  widget_class->root = fit_threshold_box_root;

  /**
   * FitThresholdBox:category:
   *
   * The first size category at which the children stack vertically (fitd's names:
   * `xSmall` … `accessibilityExtraExtraExtraLarge`); fitd refuses others, and the box stays
   * a row.
   */
  props[PROP_CATEGORY] = g_param_spec_string ("category", NULL, NULL, "accessibilityMedium",
                                              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * FitThresholdBox:spacing:
   *
   * Between neighbours, in either arrangement.
   */
  props[PROP_SPACING] = g_param_spec_int ("spacing", NULL, NULL, 0, G_MAXINT, 0,
                                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * FitThresholdBox:orientation:
   *
   * The arrangement in force: horizontal below the category, vertical from it on.
   */
  props[PROP_ORIENTATION] = g_param_spec_enum ("orientation", NULL, NULL, GTK_TYPE_ORIENTATION, GTK_ORIENTATION_HORIZONTAL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * FitThresholdBox:decision-source:
   *
   * Whether fitd decided the arrangement, or none answered and the box is a row.
   */
  props[PROP_DECISION_SOURCE] = g_param_spec_enum ("decision-source", NULL, NULL, FIT_TYPE_DECISION_SOURCE,
                                                   FIT_DECISION_SOURCE_GTK,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fitthresholdbox");
}

static void
fit_threshold_box_init (FitThresholdBox *self)
{
  self->category = g_strdup ("accessibilityMedium");
  self->changed_handler = g_signal_connect (fit_gtk_connection_watch (), "changed", G_CALLBACK (on_connection_changed), self);
}

/**
 * fit_threshold_box_new:
 * @category: (nullable): the first size category that stacks the children vertically;
 *   %NULL for `accessibilityMedium`, the first accessibility size (SwiftUI's
 *   `isAccessibilityCategory`)
 *
 * Returns: a new, empty #FitThresholdBox
 */
GtkWidget *
fit_threshold_box_new (const char *category)
{
  return g_object_new (FIT_TYPE_THRESHOLD_BOX, category ? "category" : NULL, category, NULL);
}

/**
 * fit_threshold_box_append:
 * @self: a #FitThresholdBox
 * @child: (transfer none): a widget to place after the others
 */
void
fit_threshold_box_append (FitThresholdBox *self, GtkWidget *child)
{
  g_return_if_fail (FIT_IS_THRESHOLD_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child) && gtk_widget_get_parent (child) == NULL);
  gtk_widget_set_parent (child, GTK_WIDGET (self));
}

/**
 * fit_threshold_box_get_category:
 * @self: a #FitThresholdBox
 *
 * Returns: the #FitThresholdBox:category
 */
const char *
fit_threshold_box_get_category (FitThresholdBox *self)
{
  g_return_val_if_fail (FIT_IS_THRESHOLD_BOX (self), NULL);
  return self->category;
}

/**
 * fit_threshold_box_set_category:
 * @self: a #FitThresholdBox
 * @category: a size category's name
 */
void
fit_threshold_box_set_category (FitThresholdBox *self, const char *category)
{
  g_return_if_fail (FIT_IS_THRESHOLD_BOX (self) && category != NULL);
  if (g_strcmp0 (self->category, category) == 0)
    return;
  g_free (self->category);
  self->category = g_strdup (category);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CATEGORY]);
  if (gtk_widget_get_root (GTK_WIDGET (self)) != NULL)
    ask (self);
}

/**
 * fit_threshold_box_get_spacing:
 * @self: a #FitThresholdBox
 *
 * Returns: the #FitThresholdBox:spacing
 */
int
fit_threshold_box_get_spacing (FitThresholdBox *self)
{
  g_return_val_if_fail (FIT_IS_THRESHOLD_BOX (self), 0);
  return self->spacing;
}

/**
 * fit_threshold_box_set_spacing:
 * @self: a #FitThresholdBox
 * @spacing: between neighbours, px
 */
void
fit_threshold_box_set_spacing (FitThresholdBox *self, int spacing)
{
  g_return_if_fail (FIT_IS_THRESHOLD_BOX (self));
  if (self->spacing == spacing)
    return;
  self->spacing = spacing;
  gtk_box_layout_set_spacing (box_layout (self), (guint) spacing);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SPACING]);
}

/**
 * fit_threshold_box_get_orientation:
 * @self: a #FitThresholdBox
 *
 * Returns: the #FitThresholdBox:orientation
 */
GtkOrientation
fit_threshold_box_get_orientation (FitThresholdBox *self)
{
  g_return_val_if_fail (FIT_IS_THRESHOLD_BOX (self), GTK_ORIENTATION_HORIZONTAL);
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (box_layout (self)));
}

/**
 * fit_threshold_box_get_decision_source:
 * @self: a #FitThresholdBox
 *
 * Returns: the #FitThresholdBox:decision-source
 */
FitDecisionSource
fit_threshold_box_get_decision_source (FitThresholdBox *self)
{
  g_return_val_if_fail (FIT_IS_THRESHOLD_BOX (self), FIT_DECISION_SOURCE_GTK);
  return self->source;
}
