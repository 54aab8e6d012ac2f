/* A settings list built on libfitd-gtk, as an app would write it: each row is a
 * FitViewThatFits of two real GTK layouts (title, value and switch on one line; else the
 * title above the value and switch), the rows share one decision through a FitUniformGroup,
 * and a payment row becomes a column at accessibility text sizes (FitThresholdBox). GTK
 * draws everything; fitd only says which layout fits.
 *
 *   fitd-gtk-example [WIDTH]        opens the window WIDTH px wide (default 480)
 *
 * With FITD_GTK_EXAMPLE_REPORT set it prints each row's shown candidate and where it came
 * from whenever it changes, for tests and screenshots. */
#include <fit-gtk.h>
#include <stdlib.h>

static const char *const rows[][2] = {
  { "Automatic screen lock", "After 5 minutes" },
  { "Show notifications on the lock screen", "Only from contacts" },
  { "Location services", "While using the app" },
};

static GtkWidget *
label (const char *text, gboolean dim)
{
  GtkWidget *l = gtk_label_new (text);
  /* Ellipsizing: the row stays inside its allocation, and a test can see that GTK never had
   * to ellipsize a label in the layout fitd said fits. */
  gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  if (dim)
    gtk_widget_add_css_class (l, "dim-label");
  return l;
}

static GtkWidget *
setting_row (const char *title, const char *value, FitUniformGroup *group)
{
  GtkWidget *view = fit_view_that_fits_new ();
  gtk_widget_set_name (view, title);

  GtkWidget *wide = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *wide_title = label (title, FALSE);
  gtk_widget_set_hexpand (wide_title, TRUE);
  gtk_box_append (GTK_BOX (wide), wide_title);
  gtk_box_append (GTK_BOX (wide), label (value, TRUE));
  gtk_box_append (GTK_BOX (wide), gtk_switch_new ());

  GtkWidget *narrow = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_box_append (GTK_BOX (narrow), label (title, FALSE));
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *narrow_value = label (value, TRUE);
  gtk_widget_set_hexpand (narrow_value, TRUE);
  gtk_box_append (GTK_BOX (line), narrow_value);
  gtk_box_append (GTK_BOX (line), gtk_switch_new ());
  gtk_box_append (GTK_BOX (narrow), line);

  fit_view_that_fits_append (FIT_VIEW_THAT_FITS (view), wide);
  fit_view_that_fits_append (FIT_VIEW_THAT_FITS (view), narrow);
  fit_uniform_group_add (group, FIT_VIEW_THAT_FITS (view));
  return view;
}

static void
report (GObject *object, GParamSpec *pspec, gpointer data)
{
  (void) pspec; (void) data;
  if (FIT_IS_VIEW_THAT_FITS (object))
    {
      FitViewThatFits *view = FIT_VIEW_THAT_FITS (object);
      g_print ("row \"%s\" candidate %d from %s at %d px\n", gtk_widget_get_name (GTK_WIDGET (view)),
               fit_view_that_fits_get_candidate_index (view),
               fit_view_that_fits_get_decision_source (view) == FIT_DECISION_SOURCE_FITD ? "fitd" : "gtk",
               gtk_widget_get_width (GTK_WIDGET (view)));
    }
  else
    g_print ("payment %s from %s\n",
             fit_threshold_box_get_orientation (FIT_THRESHOLD_BOX (object)) == GTK_ORIENTATION_VERTICAL ? "vertical" : "horizontal",
             fit_threshold_box_get_decision_source (FIT_THRESHOLD_BOX (object)) == FIT_DECISION_SOURCE_FITD ? "fitd" : "gtk");
}

static void
activate (GtkApplication *app, gpointer data)
{
  int width = GPOINTER_TO_INT (data);
  gboolean reporting = g_getenv ("FITD_GTK_EXAMPLE_REPORT") != NULL;
  GtkWidget *window = gtk_application_window_new (app);
  gtk_window_set_title (GTK_WINDOW (window), "fitd settings");
  /* A settings page scrolls: rows that turn into columns, or a payment row that stacks at a
   * larger text size, make it taller than the window. */
  gtk_window_set_default_size (GTK_WINDOW (window), width, 400);

  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (list, 12);
  gtk_widget_set_margin_end (list, 12);
  gtk_widget_set_margin_top (list, 12);
  gtk_widget_set_margin_bottom (list, 12);
  FitUniformGroup *group = fit_uniform_group_new ();
  g_object_set_data_full (G_OBJECT (window), "group", group, g_object_unref);
  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      GtkWidget *row = setting_row (rows[i][0], rows[i][1], group);
      if (reporting)
        {
          g_signal_connect (row, "notify::candidate-index", G_CALLBACK (report), NULL);
          g_signal_connect (row, "notify::decision-source", G_CALLBACK (report), NULL);
        }
      gtk_box_append (GTK_BOX (list), row);
    }

  GtkWidget *payment = fit_threshold_box_new (NULL);
  fit_threshold_box_set_spacing (FIT_THRESHOLD_BOX (payment), 8);
  GtkWidget *icon = gtk_image_new_from_icon_name ("emblem-documents-symbolic");
  gtk_widget_set_halign (icon, GTK_ALIGN_START);
  fit_threshold_box_append (FIT_THRESHOLD_BOX (payment), icon);
  GtkWidget *merchant = label ("Joe's Coffee Shop", FALSE);
  gtk_widget_set_hexpand (merchant, TRUE);
  fit_threshold_box_append (FIT_THRESHOLD_BOX (payment), merchant);
  fit_threshold_box_append (FIT_THRESHOLD_BOX (payment), label ("$2.34", TRUE));
  if (reporting)
    {
      g_signal_connect (payment, "notify::orientation", G_CALLBACK (report), NULL);
      g_signal_connect (payment, "notify::decision-source", G_CALLBACK (report), NULL);
    }
  gtk_box_append (GTK_BOX (list), payment);

  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), list);
  gtk_window_set_child (GTK_WINDOW (window), scroll);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int width = argc > 1 ? atoi (argv[1]) : 480;
  if (width <= 0)
    width = 480;
  GtkApplication *app = gtk_application_new ("org.fitd.GtkExample", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate), GINT_TO_POINTER (width));
  char *args[] = { argv[0], NULL };
  int status = g_application_run (G_APPLICATION (app), 1, args);
  g_object_unref (app);
  return status;
}
