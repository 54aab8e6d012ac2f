/* What the widgets of libfitd-gtk share: the fitd document built from a widget subtree, the
 * one connection to the daemon per process, and reading the flips out of a Layout reply. */
#ifndef FIT_GTK_PRIVATE_H
#define FIT_GTK_PRIVATE_H

#include <gtk/gtk.h>
#include <fit-client.h>

G_BEGIN_DECLS

/* The nodes of a document in the wire form a(ssia{sv}) (protocol/README.md, "Layout"), built
 * depth first. Ids are `<prefix>n<index>`: never `#…`, which the nested form reserves. */
typedef struct {
  GPtrArray *nodes;   /* GVariant (ssia{sv}), floating refs sunk */
  char *prefix;
} FitGtkDocument;

void fit_gtk_document_init (FitGtkDocument *doc, const char *prefix);
void fit_gtk_document_clear (FitGtkDocument *doc);
/* Adds a node; props (a{sv}) may be NULL. Returns its index. */
int fit_gtk_document_add (FitGtkDocument *doc, const char *kind, int parent, GVariant *props);
/* Adds @widget's subtree under @parent as fitd sees it (labels as texts, boxes as stacks,
 * everything else at the size GTK measures for it). Returns the subtree's index, or -1 when
 * the widget is not visible (and so is not a candidate). */
int fit_gtk_document_add_widget (FitGtkDocument *doc, GtkWidget *widget, int parent);
/* Appends the nodes of @other (a(ssia{sv}) with indices relative to it) under @parent, its
 * root's kind replaced by @root_kind (NULL keeps it) and its ids prefixed with @prefix. */
void fit_gtk_document_append (FitGtkDocument *doc, GVariant *other, int parent, const char *root_kind, const char *prefix);
/* The nodes as a(ssia{sv}), a new (non-floating) reference. */
GVariant *fit_gtk_document_end (FitGtkDocument *doc);

/* The options every widget's Layout call is made with: the toolkit this process draws
 * with, texts as Pango markup sized as GtkLabels size them, the breakpoint range. */
GVariant *fit_gtk_layout_options (GtkWidget *context_widget, gboolean breakpoints);

/* The widest width the widgets ask flips for: wider allocations take the last interval. */
#define FIT_GTK_BREAKPOINT_MAX 8192.0

/* One Layout call through the process's connection (created on first use, D-Bus activation
 * starting fitd). The callback gets libfitd-client's typed reply, or an error. */
typedef void (*FitGtkLayoutCallback) (FitLayoutResult *result, const GError *error, gpointer user_data);
void fit_gtk_layout (GVariant *nodes, double width, GVariant *options, GCancellable *cancellable,
                     FitGtkLayoutCallback callback, gpointer user_data);

/* An object that emits "changed" when fitd says its answers changed (GenerationChanged:
 * fonts, text scale) or when the daemon appears on or leaves the bus. */
GObject *fit_gtk_connection_watch (void);

/* The flips of decision @id in a reply: sorted widths from which each candidate holds (the
 * exact flip where fitd found it, else the interval's first grid width). FALSE when the
 * reply has no breakpoints for @id. */
gboolean fit_gtk_read_flips (FitLayoutResult *result, const char *id, GArray *widths, GArray *candidates);
/* Interval @index of the flips, when there is one. */
gboolean fit_gtk_flip (GArray *widths, GArray *candidates, guint index, double *width, int *candidate);
/* The candidate the flips give at @width (the last interval whose flip is ≤ width). */
int fit_gtk_candidate_at (GArray *widths, GArray *candidates, double width);

G_END_DECLS

#endif
