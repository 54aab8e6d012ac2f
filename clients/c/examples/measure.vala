// measure.vala: Measure through libfitd-client's VAPI (generated from its GIR).
//   valac --pkg fitd-client measure.vala   (with --vapidir PREFIX/share/vala/vapi outside /usr)
//   ./measure "Hello, world" "DejaVu Sans 12"
int main (string[] args) {
    if (args.length != 3) {
        stderr.printf ("usage: %s TEXT FONT\n", args[0]);
        return 2;
    }
    try {
        var fit = Fitd.Client.new_sync (null);
        Variant metrics;
        fit.call_measure_sync (args[1], args[2], new Variant.array (new VariantType ("{sv}"), {}), out metrics, null);
        // Metrics (dddubbasa(dddduusb)t): width first.
        print ("width %.17g\n", metrics.get_child_value (0).get_double ());
        print ("ui-font %s\n", fit.ui_font);
        return 0;
    } catch (Fitd.Error e) {
        // FIT_ERROR: the daemon's org.fitd.Fit1.Error.* replies, e.g. Fitd.Error.INVALID_FONT.
        DBusError.strip_remote_error (e);
        stderr.printf ("error: %s %d: %s\n", e.domain.to_string (), e.code, e.message);
        return 1;
    } catch (Error e) {
        stderr.printf ("error: %s\n", e.message);
        return 3;
    }
}
