// check.vala: libfitd-client's translation check from Vala (the fitd-client VAPI), printing
// what tests/check.c prints, for Tests/EndToEnd/c_client_check.sh to compare.
//
//   check-vala DOCUMENT TRANSLATIONS WIDTHS LANGUAGES CATEGORIES [local]
//
// The check is awaited (Fitd.check_run_async) in a main loop; an error prints
// "error DOMAIN CODE: MESSAGE" and exits 1.

string num (double x) {
    // %.17g, as tests/check.c prints.
    return "%.17g".printf (x);
}

string dash (string? text) {
    return text ?? "-";
}

string describe (Fitd.CheckReport report) {
    var out = new StringBuilder ();
    string[] widths = {};
    foreach (var width in report.get_widths ()) {
        widths += num (width);
    }
    out.append_printf ("report\t%s\t%s\t%s\t%s\t%u\t%d\t%s\n", report.get_source_language (),
                       string.joinv (",", report.get_languages ()), string.joinv (",", report.get_categories ()),
                       string.joinv (",", widths), report.get_layouts (), (int) report.get_fits (),
                       num (report.get_text_scale ()));
    foreach (unowned Fitd.CheckFinding f in report.get_findings ()) {
        out.append_printf ("finding\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", f.get_kind (), f.get_language (),
                           dash (f.get_category ()), num (f.get_width ()), dash (f.get_node ()), dash (f.get_text ()),
                           f.get_detail (), num (f.get_frame_width ()), (int) f.get_failing ());
    }
    out.append_printf ("failures\t%u\n", report.get_failures ().length);
    foreach (unowned Fitd.WorstString w in report.get_worst_strings ()) {
        out.append_printf ("worst\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", w.get_language (), w.get_node (), w.get_text (),
                           num (w.get_natural_width ()), num (w.get_room ()), w.get_category (), num (w.get_width ()));
    }
    foreach (unowned Fitd.CandidateWidth c in report.get_candidate_widths ()) {
        out.append_printf ("candidate\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", c.get_decision (), c.get_category (),
                           c.get_candidate (), dash (c.get_candidate_id ()), dash (c.get_language ()),
                           num (c.get_px ()), num (c.get_sp ()), dash (c.get_fallback_condition ()),
                           dash (c.get_fallback_condition_px ()));
    }
    return out.str;
}

string[]? list (string arg) {
    return arg == "-" ? null : arg.split (",");
}

int main (string[] args) {
    if (args.length < 6) {
        printerr ("usage: check-vala DOCUMENT TRANSLATIONS WIDTHS LANGUAGES CATEGORIES [local]\n");
        return 2;
    }
    var loop = new MainLoop ();
    int status = 0;
    Fitd.check_run_async.begin (args[1], list (args[2]), args[3], list (args[4]), list (args[5]),
                                args.length > 6 && args[6] == "local", null, (_, result) => {
        try {
            // stdout, not print (): g_print () converts to the locale's charset (? in C).
            stdout.puts (describe (Fitd.check_run_async.end (result)));
        } catch (Fitd.Error.INVALID_ARGUMENT e) {
            stdout.printf ("error %s %d: %s\nmatches Fitd.Error.INVALID_ARGUMENT\n", e.domain.to_string (), e.code, e.message);
            status = 1;
        } catch (Error e) {
            stdout.printf ("error %s %d: %s\n", e.domain.to_string (), e.code, e.message);
            status = 1;
        }
        loop.quit ();
    });
    loop.run ();
    return status;
}
