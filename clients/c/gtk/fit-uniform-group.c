/* FitUniformGroup: one decision for a whole list (seed 000, fitd's uniformFit). Every member
 * FitViewThatFits shows the candidate at the same position: the first position at which every
 * member's candidate there fits (a member with fewer candidates shows its last), as a list of
 * rows that all take one shape. Like GtkSizeGroup it is not a widget: rows stay wherever the
 * app puts them (a GtkListBox, a GtkBox). fitd is asked once per change of any member, for the
 * list's exact breakpoints; each member then switches at its own allocation locally. */
#include "fit-uniform-group-private.h"
#include "fit-gtk-private.h"

struct _FitUniformGroup {
  GObject parent_instance;
  GPtrArray *members;          /* FitViewThatFits, not referenced: a member leaves at dispose */
  GVariant *asked;             /* the list fitd was last asked about */
  gboolean asked_answered;     /* fitd's answer about `asked` came, with flips */
  gboolean answered;           /* and it holds now (no member changed since) */
  GArray *flip_widths, *flip_candidates;
  GCancellable *cancellable;
  guint idle;
  gulong changed_handler;
};

G_DEFINE_FINAL_TYPE (FitUniformGroup, fit_uniform_group, G_TYPE_OBJECT)

static void
queue_members (FitUniformGroup *self)
{
  for (guint i = 0; i < self->members->len; i++)
    gtk_widget_queue_resize (g_ptr_array_index (self->members, i));
}

static void
on_answer (FitLayoutResult *result, const GError *error, gpointer data)
{
  FitUniformGroup *self = data;
  g_clear_object (&self->cancellable);
  self->answered = error == NULL && fit_gtk_read_flips (result, "n0", self->flip_widths, self->flip_candidates);
  self->asked_answered = self->answered;
  if (error != NULL)
    g_debug ("FitUniformGroup: fitd did not answer, GTK decides: %s", error->message);
  queue_members (self);
}

/* The list as fitd's uniformFit: one `choice` per member holding its candidates. */
static gboolean
describe_and_ask (gpointer data)
{
  FitUniformGroup *self = data;
  self->idle = 0;
  if (self->members->len == 0)
    return G_SOURCE_REMOVE;
  FitGtkDocument doc;
  fit_gtk_document_init (&doc, "");
  GVariantDict root;
  g_variant_dict_init (&root, NULL);
  g_variant_dict_insert (&root, "axis", "s", "vertical");
  g_variant_dict_insert (&root, "axes", "s", "horizontal");
  g_variant_dict_insert (&root, "spacing", "d", 0.0);
  int list = fit_gtk_document_add (&doc, "uniformFit", -1, g_variant_dict_end (&root));
  gboolean complete = TRUE;
  for (guint i = 0; i < self->members->len; i++)
    {
      GVariant *member = _fit_view_that_fits_get_document (g_ptr_array_index (self->members, i));
      if (member == NULL)
        {
          complete = FALSE;   /* not measured yet: its first measure calls again */
          continue;
        }
      g_autofree char *prefix = g_strdup_printf ("m%u", i);
      fit_gtk_document_append (&doc, member, list, "choice", prefix);
    }
  g_autoptr (GVariant) nodes = fit_gtk_document_end (&doc);
  fit_gtk_document_clear (&doc);
  if (!complete)
    return G_SOURCE_REMOVE;
  if (self->asked != NULL && g_variant_equal (nodes, self->asked))
    {
      /* A member changed back, or asked again about what it had described (a member forgets
       * its answer at a new generation, as the group does, and the group may have asked and
       * been answered first): fitd's answer about this list, if it came, still holds. One
       * still on its way sets it when it comes; nothing else would ask again, so a cleared
       * `answered` here would leave the list on GTK's measuring for good. */
      if (self->asked_answered && !self->answered)
        {
          self->answered = TRUE;
          queue_members (self);
        }
      return G_SOURCE_REMOVE;
    }
  g_clear_pointer (&self->asked, g_variant_unref);
  self->asked = g_variant_ref (nodes);
  self->answered = self->asked_answered = FALSE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  GtkWidget *context = g_ptr_array_index (self->members, 0);
  g_autoptr (GVariant) options = fit_gtk_layout_options (context, TRUE);
  fit_gtk_layout (nodes, FIT_GTK_BREAKPOINT_MAX, options, self->cancellable, on_answer, self);
  return G_SOURCE_REMOVE;
}

void
_fit_uniform_group_member_changed (FitUniformGroup *self)
{
  self->answered = FALSE;
  if (self->idle == 0)
    self->idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, describe_and_ask, self, NULL);
}

gboolean
_fit_uniform_group_candidate_at (FitUniformGroup *self, int width, int *candidate)
{
  if (!self->answered)
    return FALSE;
  *candidate = fit_gtk_candidate_at (self->flip_widths, self->flip_candidates, width);
  return TRUE;
}

static void
on_connection_changed (GObject *watch, gpointer data)
{
  (void) watch;
  FitUniformGroup *self = data;
  g_clear_pointer (&self->asked, g_variant_unref);
  self->answered = self->asked_answered = FALSE;
  queue_members (self);
  _fit_uniform_group_member_changed (self);
}

static void
fit_uniform_group_dispose (GObject *object)
{
  FitUniformGroup *self = FIT_UNIFORM_GROUP (object);
  while (self->members->len > 0)
    fit_uniform_group_remove (self, g_ptr_array_index (self->members, 0));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->idle, g_source_remove);
  g_clear_signal_handler (&self->changed_handler, fit_gtk_connection_watch ());
  G_OBJECT_CLASS (fit_uniform_group_parent_class)->dispose (object);
}

static void
fit_uniform_group_finalize (GObject *object)
{
  FitUniformGroup *self = FIT_UNIFORM_GROUP (object);
  g_ptr_array_unref (self->members);
  g_clear_pointer (&self->asked, g_variant_unref);
  g_array_unref (self->flip_widths);
  g_array_unref (self->flip_candidates);
  G_OBJECT_CLASS (fit_uniform_group_parent_class)->finalize (object);
}

static void
fit_uniform_group_class_init (FitUniformGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = fit_uniform_group_dispose;
  G_OBJECT_CLASS (klass)->finalize = fit_uniform_group_finalize;
}

static void
fit_uniform_group_init (FitUniformGroup *self)
{
  self->members = g_ptr_array_new ();
  self->flip_widths = g_array_new (FALSE, FALSE, sizeof (double));
  self->flip_candidates = g_array_new (FALSE, FALSE, sizeof (int));
  self->changed_handler = g_signal_connect (fit_gtk_connection_watch (), "changed", G_CALLBACK (on_connection_changed), self);
}

/**
 * fit_uniform_group_new:
 *
 * Returns: (transfer full): a new group with no members
 */
FitUniformGroup *
fit_uniform_group_new (void)
{
  return g_object_new (FIT_TYPE_UNIFORM_GROUP, NULL);
}

/**
 * fit_uniform_group_add:
 * @self: a #FitUniformGroup
 * @view: a #FitViewThatFits that takes the list's position from now on
 */
void
fit_uniform_group_add (FitUniformGroup *self, FitViewThatFits *view)
{
  g_return_if_fail (FIT_IS_UNIFORM_GROUP (self) && FIT_IS_VIEW_THAT_FITS (view));
  if (g_ptr_array_find (self->members, view, NULL))
    return;
  g_ptr_array_add (self->members, view);
  _fit_view_that_fits_set_group (view, self);
  _fit_uniform_group_member_changed (self);
}

/**
 * fit_uniform_group_remove:
 * @self: a #FitUniformGroup
 * @view: one of its members, which decides on its own again
 */
void
fit_uniform_group_remove (FitUniformGroup *self, FitViewThatFits *view)
{
  g_return_if_fail (FIT_IS_UNIFORM_GROUP (self));
  if (!g_ptr_array_remove (self->members, view))
    return;
  _fit_view_that_fits_set_group (view, NULL);
  _fit_uniform_group_member_changed (self);
}

/**
 * fit_uniform_group_get_answered:
 * @self: a #FitUniformGroup
 *
 * Returns: whether fitd's breakpoints for the list as it is now decide its members
 */
gboolean
fit_uniform_group_get_answered (FitUniformGroup *self)
{
  g_return_val_if_fail (FIT_IS_UNIFORM_GROUP (self), FALSE);
  return self->answered;
}

/**
 * fit_uniform_group_get_n_flips:
 * @self: a #FitUniformGroup
 *
 * Returns: how many width intervals fitd's answer for the list has (0 before it answers)
 */
guint
fit_uniform_group_get_n_flips (FitUniformGroup *self)
{
  g_return_val_if_fail (FIT_IS_UNIFORM_GROUP (self), 0);
  return self->answered ? self->flip_widths->len : 0;
}

/**
 * fit_uniform_group_get_flip:
 * @self: a #FitUniformGroup
 * @index: an interval, in width order
 * @width: (out): its smallest width, exact to Pango's 1/1024 px
 * @candidate: (out): the position every member shows from that width on
 *
 * Returns: %TRUE when @index is one of fitd's intervals
 */
gboolean
fit_uniform_group_get_flip (FitUniformGroup *self, guint index, double *width, int *candidate)
{
  g_return_val_if_fail (FIT_IS_UNIFORM_GROUP (self), FALSE);
  return self->answered && fit_gtk_flip (self->flip_widths, self->flip_candidates, index, width, candidate);
}
