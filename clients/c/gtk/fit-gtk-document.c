/* The fitd document of a widget subtree, the process's connection to fitd, and the flips of
 * a Layout reply: what FitViewThatFits, FitUniformGroup and FitThresholdBox share. */
#include "fit-gtk-private.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>
#include <fit-client.h>

void
fit_gtk_document_init (FitGtkDocument *doc, const char *prefix)
{
  doc->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  doc->prefix = g_strdup (prefix ? prefix : "");
}

void
fit_gtk_document_clear (FitGtkDocument *doc)
{
  g_clear_pointer (&doc->nodes, g_ptr_array_unref);
  g_clear_pointer (&doc->prefix, g_free);
}

int
fit_gtk_document_add (FitGtkDocument *doc, const char *kind, int parent, GVariant *props)
{
  int index = (int) doc->nodes->len;
  g_autofree char *id = g_strdup_printf ("%sn%d", doc->prefix, index);
  if (props == NULL)
    props = g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0);
  g_ptr_array_add (doc->nodes, g_variant_ref_sink (g_variant_new ("(ssi@a{sv})", id, kind, parent, props)));
  return index;
}

void
fit_gtk_document_append (FitGtkDocument *doc, GVariant *other, int parent, const char *root_kind, const char *prefix)
{
  int offset = (int) doc->nodes->len;
  gsize n = g_variant_n_children (other);
  for (gsize i = 0; i < n; i++)
    {
      const char *id, *kind;
      int node_parent;
      g_autoptr (GVariant) props = NULL;
      g_variant_get_child (other, i, "(&s&si@a{sv})", &id, &kind, &node_parent, &props);
      g_autofree char *new_id = g_strconcat (prefix, id, NULL);
      gboolean root = node_parent < 0;
      if (root && root_kind != NULL)
        {
          /* A choice takes no axes: keep the rest (there is nothing else on a firstFit). */
          g_autoptr (GVariant) empty = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
          g_ptr_array_add (doc->nodes, g_variant_ref_sink (g_variant_new ("(ssi@a{sv})", new_id, root_kind, parent, empty)));
        }
      else
        g_ptr_array_add (doc->nodes, g_variant_ref_sink (g_variant_new ("(ssi@a{sv})", new_id, kind,
                                                                         root ? parent : node_parent + offset, props)));
    }
}

GVariant *
fit_gtk_document_end (FitGtkDocument *doc)
{
  return g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("(ssia{sv})"),
                                                  (GVariant **) doc->nodes->pdata, doc->nodes->len));
}

/* What the theme puts around a widget's content, with the widget's own margins: GTK adds
 * both to what it measures (gtk_widget_measure). GtkStyleContext is GTK 4.8's only public
 * reading of the CSS box (deprecated from 4.10, still there through GTK 4). */
static GtkBorder
widget_extents (GtkWidget *widget)
{
  GtkBorder margin, border, padding, total;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  gtk_style_context_get_margin (style, &margin);
  gtk_style_context_get_border (style, &border);
  gtk_style_context_get_padding (style, &padding);
  G_GNUC_END_IGNORE_DEPRECATIONS
  total.left = margin.left + border.left + padding.left;
  total.right = margin.right + border.right + padding.right;
  total.top = margin.top + border.top + padding.top + gtk_widget_get_margin_top (widget);
  total.bottom = margin.bottom + border.bottom + padding.bottom + gtk_widget_get_margin_bottom (widget);
  /* margin-start is the leading edge: the left one unless the widget is right to left. */
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  total.left += rtl ? gtk_widget_get_margin_end (widget) : gtk_widget_get_margin_start (widget);
  total.right += rtl ? gtk_widget_get_margin_start (widget) : gtk_widget_get_margin_end (widget);
  return total;
}

/* A padding node for the extents when there are any; returns the index texts or stacks go
 * under. fitd's padding is leading/trailing: left/right in a left-to-right layout. */
static int
add_extents (FitGtkDocument *doc, GtkWidget *widget, int parent)
{
  GtkBorder e = widget_extents (widget);
  if (e.left == 0 && e.right == 0 && e.top == 0 && e.bottom == 0)
    return parent;
  GVariantDict props;
  g_variant_dict_init (&props, NULL);
  g_variant_dict_insert (&props, "top", "d", (double) e.top);
  g_variant_dict_insert (&props, "bottom", "d", (double) e.bottom);
  g_variant_dict_insert (&props, "leading", "d", (double) e.left);
  g_variant_dict_insert (&props, "trailing", "d", (double) e.right);
  return fit_gtk_document_add (doc, "padding", parent, g_variant_dict_end (&props));
}

/* A widget fitd does not model: a picture of the size GTK measures for it, its CSS padding,
 * borders, minimum sizes, icons and children included. */
static int
add_measured (FitGtkDocument *doc, GtkWidget *widget, int parent)
{
  int min_w, nat_w, min_h, nat_h;
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL, NULL);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, nat_w, &min_h, &nat_h, NULL, NULL);
  GVariantDict props;
  g_variant_dict_init (&props, NULL);
  g_variant_dict_insert (&props, "width", "d", (double) nat_w);
  g_variant_dict_insert (&props, "height", "d", (double) nat_h);
  return fit_gtk_document_add (doc, "image", parent, g_variant_dict_end (&props));
}

/* A label fitd can measure as GTK does: its text (markup kept, as the layout's `markup`
 * option reads every text), the font GTK resolved for it from the theme and settings, and
 * its line limit. Labels whose request fitd's text node cannot express (width-chars,
 * max-width-chars, attributes, markup with mnemonics) are measured by GTK instead. */
static gboolean
label_is_plain_text (GtkLabel *label)
{
  if (gtk_label_get_width_chars (label) >= 0 || gtk_label_get_max_width_chars (label) >= 0)
    return FALSE;
  /* Attributes index the shown text: with markup or mnemonics it is not the label's own. */
  if (gtk_label_get_attributes (label) != NULL)
    return !gtk_label_get_use_markup (label) && !gtk_label_get_use_underline (label);
  return !(gtk_label_get_use_markup (label) && gtk_label_get_use_underline (label));
}

/* One span attribute of Pango markup (pango-markup.c's span attributes) for an attribute of
 * a label's PangoAttrList. Returns FALSE for one that changes a text's size and has no span
 * form (then GTK measures the label); attributes that change no size (colours, underline,
 * strikethrough, overline) are left out. */
static gboolean
append_span_attribute (GString *span, const PangoAttribute *attribute, double dpi)
{
  switch ((int) attribute->klass->type)
    {
    case PANGO_ATTR_FOREGROUND: case PANGO_ATTR_BACKGROUND: case PANGO_ATTR_UNDERLINE:
    case PANGO_ATTR_UNDERLINE_COLOR: case PANGO_ATTR_STRIKETHROUGH: case PANGO_ATTR_STRIKETHROUGH_COLOR:
    case PANGO_ATTR_FOREGROUND_ALPHA: case PANGO_ATTR_BACKGROUND_ALPHA: case PANGO_ATTR_OVERLINE:
    case PANGO_ATTR_OVERLINE_COLOR:
      return TRUE;
    case PANGO_ATTR_FONT_DESC:
      {
        /* A size in points becomes px at the label's resolution, as GTK's Pango converts it:
         * fitd measures the document at text scale 1. */
        g_autoptr (PangoFontDescription) copy = pango_font_description_copy (((PangoAttrFontDesc *) attribute)->desc);
        if ((pango_font_description_get_set_fields (copy) & PANGO_FONT_MASK_SIZE)
            && !pango_font_description_get_size_is_absolute (copy))
          pango_font_description_set_absolute_size (copy, pango_font_description_get_size (copy) * dpi / 72.0);
        g_autofree char *desc = pango_font_description_to_string (copy);
        g_autofree char *escaped = g_markup_escape_text (desc, -1);
        g_string_append_printf (span, " font=\"%s\"", escaped);
        return TRUE;
      }
    case PANGO_ATTR_FAMILY:
      {
        g_autofree char *escaped = g_markup_escape_text (((PangoAttrString *) attribute)->value, -1);
        g_string_append_printf (span, " font_family=\"%s\"", escaped);
        return TRUE;
      }
    case PANGO_ATTR_STYLE:
      {
        int style = ((PangoAttrInt *) attribute)->value;
        g_string_append_printf (span, " style=\"%s\"",
                                style == PANGO_STYLE_ITALIC ? "italic" : style == PANGO_STYLE_OBLIQUE ? "oblique" : "normal");
        return TRUE;
      }
    case PANGO_ATTR_WEIGHT:
      g_string_append_printf (span, " weight=\"%d\"", ((PangoAttrInt *) attribute)->value);
      return TRUE;
    case PANGO_ATTR_SIZE:
      /* Points, which Pango turns into px at the context's resolution (GTK's gtk-xft-dpi). */
      g_string_append_printf (span, " font=\"%.4fpx\"", ((PangoAttrSize *) attribute)->size / (double) PANGO_SCALE * dpi / 72.0);
      return TRUE;
    case PANGO_ATTR_ABSOLUTE_SIZE:
      /* A description holding only a size in px: merged, as a span's font is. */
      g_string_append_printf (span, " font=\"%.4fpx\"", ((PangoAttrSize *) attribute)->size / (double) PANGO_SCALE);
      return TRUE;
    case PANGO_ATTR_LETTER_SPACING:
      g_string_append_printf (span, " letter_spacing=\"%d\"", ((PangoAttrInt *) attribute)->value);
      return TRUE;
    case PANGO_ATTR_RISE:
      g_string_append_printf (span, " rise=\"%d\"", ((PangoAttrInt *) attribute)->value);
      return TRUE;
    case PANGO_ATTR_FALLBACK:
      g_string_append_printf (span, " fallback=\"%s\"", ((PangoAttrInt *) attribute)->value ? "true" : "false");
      return TRUE;
    case PANGO_ATTR_FONT_FEATURES:
      {
        g_autofree char *escaped = g_markup_escape_text (((PangoAttrFontFeatures *) attribute)->features, -1);
        g_string_append_printf (span, " font_features=\"%s\"", escaped);
        return TRUE;
      }
    case PANGO_ATTR_LANGUAGE:
      g_string_append_printf (span, " lang=\"%s\"", pango_language_to_string (((PangoAttrLanguage *) attribute)->value));
      return TRUE;
    default:
      return FALSE;
    }
}

/* A label's text and PangoAttrList as the Pango markup that draws the same: one span per run
 * of text under the same attributes (pango_attr_list_get_iterator). NULL when an attribute
 * has no span form or a run does not fall on character boundaries. */
static char *
attributes_as_markup (const char *text, PangoAttrList *attributes, double dpi)
{
  gsize length = strlen (text);
  g_autoptr (GString) markup = g_string_sized_new (length * 2);
  PangoAttrIterator *runs = pango_attr_list_get_iterator (attributes);
  gboolean ok = TRUE;
  gsize covered = 0;
  do
    {
      int start, end;
      pango_attr_iterator_range (runs, &start, &end);
      gsize from = (gsize) MAX (start, 0), to = MIN ((gsize) MAX (end, 0), length);
      if (from >= length || from >= to)
        continue;
      if (from > covered)
        {
          g_autofree char *plain = g_markup_escape_text (text + covered, (gssize) (from - covered));
          g_string_append (markup, plain);
        }
      if (!g_utf8_validate_len (text + from, to - from, NULL))
        {
          ok = FALSE;
          break;
        }
      GString *span = g_string_new ("<span");
      GSList *set = pango_attr_iterator_get_attrs (runs);
      for (GSList *l = set; l != NULL && ok; l = l->next)
        ok = append_span_attribute (span, l->data, dpi);
      g_slist_free_full (set, (GDestroyNotify) pango_attribute_destroy);
      g_autofree char *escaped = g_markup_escape_text (text + from, (gssize) (to - from));
      g_string_append_printf (markup, "%s>%s</span>", span->str, escaped);
      g_string_free (span, TRUE);
      covered = to;
    }
  while (ok && pango_attr_iterator_next (runs));
  pango_attr_iterator_destroy (runs);
  if (!ok)
    return NULL;
  if (covered < length)
    {
      g_autofree char *plain = g_markup_escape_text (text + covered, (gssize) (length - covered));
      g_string_append (markup, plain);
    }
  return g_string_free (g_steal_pointer (&markup), FALSE);
}

static int add_measured (FitGtkDocument *doc, GtkWidget *widget, int parent);

static int
add_label (FitGtkDocument *doc, GtkLabel *label, int parent)
{
  GtkWidget *widget = GTK_WIDGET (label);
  g_autofree char *text = NULL;
  if (gtk_label_get_attributes (label) != NULL)
    {
      double dpi = pango_cairo_context_get_resolution (gtk_widget_get_pango_context (widget));
      text = attributes_as_markup (gtk_label_get_text (label), gtk_label_get_attributes (label), dpi > 0 ? dpi : 96.0);
      if (text == NULL)
        return add_measured (doc, widget, parent);
    }
  else if (gtk_label_get_use_markup (label))
    text = g_strdup (gtk_label_get_label (label));
  else
    text = g_markup_escape_text (gtk_label_get_text (label), -1);
  int under = add_extents (doc, widget, parent);
  GVariantDict props;
  g_variant_dict_init (&props, NULL);
  g_variant_dict_insert (&props, "text", "s", text);
  PangoContext *context = gtk_widget_get_pango_context (widget);
  g_autofree char *font = pango_font_description_to_string (pango_context_get_font_description (context));
  g_variant_dict_insert (&props, "font", "s", font);
  PangoEllipsizeMode ellipsize = gtk_label_get_ellipsize (label);
  gboolean wrap = gtk_label_get_wrap (label);
  if (ellipsize != PANGO_ELLIPSIZE_NONE)
    {
      /* gtk_label_set_lines limits an ellipsizing label that wraps; without wrap it is one line. */
      int lines = gtk_label_get_lines (label);
      g_variant_dict_insert (&props, "lineLimit", "x", (gint64) (wrap && lines > 0 ? lines : 1));
      g_variant_dict_insert (&props, "truncation", "s",
                             ellipsize == PANGO_ELLIPSIZE_START ? "head" : ellipsize == PANGO_ELLIPSIZE_MIDDLE ? "middle" : "tail");
    }
  else if (!wrap)
    g_variant_dict_insert (&props, "lineLimit", "x", (gint64) 1);
  fit_gtk_document_add (doc, "text", under, g_variant_dict_end (&props));
  return under == parent ? (int) doc->nodes->len - 1 : under;
}

static gboolean
is_shown (GtkWidget *widget)
{
  return gtk_widget_get_visible (widget);
}

/* A box as the stack it is: its children in order, with the spacing GTK puts between them
 * (the spacing property plus the theme's border-spacing, which GTK 4.8 offers no public
 * reading of, so it is what GTK's own measure leaves over once the children are counted). */
static int
add_box (FitGtkDocument *doc, GtkBox *box, int parent)
{
  GtkWidget *widget = GTK_WIDGET (box);
  GtkOrientation axis = gtk_orientable_get_orientation (GTK_ORIENTABLE (box));
  int count = 0, children_natural = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (is_shown (child))
      {
        int nat;
        gtk_widget_measure (child, axis, -1, NULL, &nat, NULL, NULL);
        children_natural += nat;
        count++;
      }
  double spacing = gtk_box_get_spacing (box);
  if (count > 1)
    {
      int nat;
      gtk_widget_measure (widget, axis, -1, NULL, &nat, NULL, NULL);
      GtkBorder e = widget_extents (widget);
      int extents = axis == GTK_ORIENTATION_HORIZONTAL ? e.left + e.right : e.top + e.bottom;
      double measured = (double) (nat - extents - children_natural) / (count - 1);
      if (measured >= 0)
        spacing = measured;
    }
  int under = add_extents (doc, widget, parent);
  GVariantDict props;
  g_variant_dict_init (&props, NULL);
  g_variant_dict_insert (&props, "spacing", "d", spacing);
  int stack = fit_gtk_document_add (doc, axis == GTK_ORIENTATION_HORIZONTAL ? "hstack" : "vstack", under, g_variant_dict_end (&props));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    fit_gtk_document_add_widget (doc, child, stack);
  return under == parent ? stack : under;
}

int
fit_gtk_document_add_widget (FitGtkDocument *doc, GtkWidget *widget, int parent)
{
  if (!is_shown (widget))
    return -1;
  if (GTK_IS_LABEL (widget) && label_is_plain_text (GTK_LABEL (widget)))
    return add_label (doc, GTK_LABEL (widget), parent);
  /* A homogeneous box gives every child the widest one's length: not a stack. */
  if (GTK_IS_BOX (widget) && !gtk_box_get_homogeneous (GTK_BOX (widget)))
    return add_box (doc, GTK_BOX (widget), parent);
  return add_measured (doc, widget, parent);
}

GVariant *
fit_gtk_layout_options (GtkWidget *context_widget, gboolean breakpoints)
{
  GVariantDict options;
  g_autoptr (GVariant) defaults = g_variant_ref_sink (fit_client_default_options ());
  g_variant_dict_init (&options, defaults);
  g_variant_dict_insert (&options, "markup", "b", TRUE);
  g_variant_dict_insert (&options, "label_sizes", "b", TRUE);
  /* The labels' fonts are in the px GTK resolved, its own text scale (gtk-xft-dpi) applied
   * already: fitd must not scale them again. The size category stays the user's. */
  g_variant_dict_insert (&options, "text_scale", "d", 1.0);
  PangoLanguage *language = pango_context_get_language (gtk_widget_get_pango_context (context_widget));
  if (language != NULL)
    g_variant_dict_insert (&options, "language", "s", pango_language_to_string (language));
  if (breakpoints)
    g_variant_dict_insert (&options, "breakpoints", "(dd)", 0.0, FIT_GTK_BREAKPOINT_MAX);
  return g_variant_ref_sink (g_variant_dict_end (&options));
}

/* ---- The connection: one proxy per process, created on first use. ---- */

typedef struct {
  GVariant *nodes, *options;
  double width;
  GCancellable *cancellable;
  FitGtkLayoutCallback callback;
  gpointer user_data;
} PendingLayout;

static FitClient *shared_proxy;
static gboolean proxy_failed;
static GError *proxy_error;
static GSList *waiting;          /* PendingLayout*, while the proxy is being made */
static gboolean proxy_started;
static GObject *watch_object;

static void
pending_free (PendingLayout *p)
{
  g_variant_unref (p->nodes);
  g_variant_unref (p->options);
  g_clear_object (&p->cancellable);
  g_free (p);
}

static void
layout_done (GObject *source, GAsyncResult *result, gpointer data)
{
  PendingLayout *p = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) size = NULL, frames = NULL, decisions = NULL;
  g_autoptr (FitLayoutResult) typed = NULL;
  gboolean truncated;
  guint64 generation;
  if (fit_client_call_layout_finish (FIT_CLIENT (source), &size, &frames, &decisions, &truncated, &generation, result, &error))
    typed = fit_layout_result_new_from_reply (size, frames, decisions, truncated, generation, &error);
  else
    g_dbus_error_strip_remote_error (error);
  if (typed != NULL)
    p->callback (typed, NULL, p->user_data);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    p->callback (NULL, error, p->user_data);
  pending_free (p);
}

static void
send_layout (PendingLayout *p)
{
  fit_client_call_layout (shared_proxy, p->nodes, g_variant_new ("(bdbd)", TRUE, p->width, FALSE, 0.0), p->options,
                          p->cancellable, layout_done, p);
}

static void
emit_changed (void)
{
  if (watch_object != NULL)
    g_signal_emit_by_name (watch_object, "changed");
}

static void
on_generation_changed (FitClient *proxy, guint64 generation, const char *reason, gpointer data)
{
  (void) proxy; (void) generation; (void) reason; (void) data;
  emit_changed ();
}

static void
on_name_owner (GObject *proxy, GParamSpec *pspec, gpointer data)
{
  (void) proxy; (void) pspec; (void) data;
  emit_changed ();
}

static void
proxy_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  (void) source; (void) data;
  g_autoptr (GError) error = NULL;
  shared_proxy = fit_client_proxy_new_for_bus_finish (result, &error);
  GSList *queue = g_slist_reverse (waiting);
  waiting = NULL;
  if (shared_proxy == NULL)
    {
      proxy_failed = TRUE;
      proxy_error = g_error_copy (error);
      for (GSList *l = queue; l; l = l->next)
        {
          PendingLayout *p = l->data;
          /* A cancelled call's widget may be gone: only the others hear of the failure. */
          if (p->cancellable == NULL || !g_cancellable_is_cancelled (p->cancellable))
            p->callback (NULL, error, p->user_data);
          pending_free (p);
        }
      g_slist_free (queue);
      return;
    }
  /* Calls must not outlast a daemon that hangs: GTK goes on with its own measuring. */
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (shared_proxy), 5000);
  g_signal_connect (shared_proxy, "generation-changed", G_CALLBACK (on_generation_changed), NULL);
  g_signal_connect (shared_proxy, "notify::g-name-owner", G_CALLBACK (on_name_owner), NULL);
  for (GSList *l = queue; l; l = l->next)
    send_layout (l->data);
  g_slist_free (queue);
}

void
fit_gtk_layout (GVariant *nodes, double width, GVariant *options, GCancellable *cancellable,
                FitGtkLayoutCallback callback, gpointer user_data)
{
  PendingLayout *p = g_new0 (PendingLayout, 1);
  p->nodes = g_variant_ref (nodes);
  p->options = g_variant_ref (options);
  p->width = width;
  p->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  p->callback = callback;
  p->user_data = user_data;
  if (proxy_failed)
    {
      callback (NULL, proxy_error, user_data);
      pending_free (p);
      return;
    }
  if (shared_proxy != NULL)
    {
      send_layout (p);
      return;
    }
  waiting = g_slist_prepend (waiting, p);
  if (!proxy_started)
    {
      proxy_started = TRUE;
      /* Not started at construction: the first call activates fitd, and a session without
       * it answers that call with an error rather than blocking the proxy's creation. */
      fit_client_proxy_new_for_bus (G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
                                    FIT_BUS_NAME, FIT_OBJECT_PATH, NULL, proxy_ready, NULL);
    }
}

GObject *
fit_gtk_connection_watch (void)
{
  if (watch_object == NULL)
    {
      /* A plain GObject with one signal, "changed", added once for the process. */
      static GType type;
      if (type == 0)
        {
          type = g_type_register_static_simple (G_TYPE_OBJECT, "FitGtkConnectionWatch", sizeof (GObjectClass), NULL,
                                                sizeof (GObject), NULL, 0);
          g_signal_new ("changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
        }
      watch_object = g_object_new (type, NULL);
    }
  return watch_object;
}

gboolean
fit_gtk_read_flips (FitLayoutResult *result, const char *id, GArray *widths, GArray *candidates)
{
  g_array_set_size (widths, 0);
  g_array_set_size (candidates, 0);
  FitBreakpoints *breakpoints = result ? fit_layout_result_get_breakpoints (result) : NULL;
  GPtrArray *intervals = breakpoints ? fit_breakpoints_get_intervals (breakpoints, id) : NULL;
  for (guint i = 0; intervals != NULL && i < intervals->len; i++)
    {
      FitInterval *interval = g_ptr_array_index (intervals, i);
      double flip = fit_interval_get_flip (interval);
      if (flip < 0)
        flip = fit_interval_get_from (interval);
      int candidate = fit_interval_get_candidate (interval);
      g_array_append_val (widths, flip);
      g_array_append_val (candidates, candidate);
    }
  return widths->len > 0;
}

gboolean
fit_gtk_flip (GArray *widths, GArray *candidates, guint index, double *width, int *candidate)
{
  if (index >= widths->len)
    return FALSE;
  *width = g_array_index (widths, double, index);
  *candidate = g_array_index (candidates, int, index);
  return TRUE;
}

int
fit_gtk_candidate_at (GArray *widths, GArray *candidates, double width)
{
  int chosen = -1;
  for (guint i = 0; i < widths->len; i++)
    if (g_array_index (widths, double, i) <= width)
      chosen = g_array_index (candidates, int, i);
  if (chosen < 0 && candidates->len > 0)
    chosen = g_array_index (candidates, int, 0);
  return chosen;
}
