// layout.vala: libfitd-client's typed layout API from Vala (the VAPI, namespace Fitd),
// printing what tests/layout.c prints, for Tests/EndToEnd/c_client_layout.sh to compare.
//   layout-vala layout FILE WIDTH [MIN MAX] | json TEXT WIDTH
string num (double x) {
    return "%.17g".printf (x);
}

int bit (bool b) {
    return b ? 1 : 0;
}

string describe (Fitd.LayoutResult result) {
    var out = new StringBuilder ();
    out.append_printf ("size %s %s\n", num (result.get_width ()), num (result.get_height ()));
    foreach (unowned Fitd.Frame frame in result.get_frames ()) {
        out.append_printf ("frame %s %d %s %s %s %s %d %s %u %d", frame.get_id (), bit (frame.get_visible ()),
            num (frame.get_x ()), num (frame.get_y ()), num (frame.get_width ()), num (frame.get_height ()),
            bit (frame.get_is_text ()), num (frame.get_scale ()), frame.get_line_count (), bit (frame.get_truncated ()));
        double first, last;
        if (frame.get_baselines (out first, out last)) {
            out.append_printf (" baselines %s %s", num (first), num (last));
        }
        if (frame.get_hidden ()) {
            out.append (" hidden");
        }
        if (frame.get_alignment () != null) {
            out.append_printf (" alignment %s", frame.get_alignment ());
        }
        out.append_c ('\n');
        if (result.get_frame (frame.get_id ()) != frame) {
            out.append_printf ("LOOKUP FAILED frame %s\n", frame.get_id ());
        }
    }
    foreach (unowned Fitd.Decision decision in result.get_decisions ()) {
        out.append_printf ("decision %s %s %d %s %s %s %s\n", decision.get_id (), decision.get_kind (),
            decision.get_candidate (), decision.get_candidate_id () ?? "-", decision.get_axis () ?? "-",
            num (decision.get_length ()), num (decision.get_scale ()));
        if (result.get_decision (decision.get_id ()) != decision) {
            out.append_printf ("LOOKUP FAILED decision %s\n", decision.get_id ());
        }
    }
    if (result.get_frame ("no such node") != null || result.get_decision ("no such node") != null) {
        out.append ("LOOKUP FAILED: an unknown id was found\n");
    }
    unowned Fitd.Breakpoints? breakpoints = result.get_breakpoints ();
    if (breakpoints != null) {
        double min, max;
        breakpoints.get_range (out min, out max);
        out.append_printf ("breakpoints %s %s %s %s %s %d\n", num (breakpoints.get_min_content_width ()),
            num (breakpoints.get_max_content_width ()), num (min), num (max), num (breakpoints.get_text_scale ()),
            bit (breakpoints.get_truncated ()));
        foreach (unowned string id in breakpoints.get_decision_ids ()) {
            foreach (unowned Fitd.Interval interval in breakpoints.get_intervals (id)) {
                out.append_printf ("interval %s %s %s %d %s %s %s\n", id, num (interval.get_from ()),
                    num (interval.get_to ()), interval.get_candidate (), interval.get_axis () ?? "-",
                    num (interval.get_flip ()), num (interval.get_flip_sp ()));
            }
        }
        if (breakpoints.get_intervals ("no such node") != null) {
            out.append ("LOOKUP FAILED: intervals of an unknown id\n");
        }
    }
    out.append_printf ("truncated %d\n", bit (result.get_truncated ()));
    return out.str;
}

int main (string[] args) {
    try {
        var fit = Fitd.Client.new_sync (null);
        if (args.length >= 4 && args[1] == "layout") {
            var options = new VariantDict ();
            if (args.length == 6) {
                options.insert_value ("breakpoints", new Variant ("(dd)", double.parse (args[4]), double.parse (args[5])));
            }
            var file = File.new_for_commandline_arg (args[2]);
            var result = fit.layout_file (file, double.parse (args[3]), Fitd.IDEAL, options.end (), null);
            stdout.printf ("%s", describe (result));
            return 0;
        }
        if (args.length == 4 && args[1] == "json") {
            stdout.printf ("%s", describe (fit.layout_json (args[2], double.parse (args[3]), Fitd.IDEAL, null, null)));
            return 0;
        }
        stderr.printf ("usage: %s layout FILE WIDTH [MIN MAX] | json TEXT WIDTH\n", args[0]);
        return 2;
    } catch (Fitd.Error e) {
        // The daemon's errors and the document's: a Fitd.Error with the daemon's own sentence.
        stdout.printf ("error %s %d: %s\n", e.domain.to_string (), e.code, e.message);
        if (e is Fitd.Error.INVALID_DOCUMENT) {
            stdout.printf ("matches Fitd.Error.INVALID_DOCUMENT\n");
        }
        return 1;
    } catch (Error e) {
        stdout.printf ("error %s %d: %s\n", e.domain.to_string (), e.code, e.message);
        return 1;
    }
}
