// check.js: libfitd-client's translation check from GJS (the Fitd typelib), printing what
// tests/check.c prints, for Tests/EndToEnd/c_client_check.sh to compare.
//
//   gjs -m check.js DOCUMENT TRANSLATIONS WIDTHS LANGUAGES CATEGORIES [local]
//
// TRANSLATIONS, LANGUAGES and CATEGORIES are comma-separated ("-": null). The check is
// awaited (Fitd.check_run_async, promisified); an error prints "error DOMAIN CODE: MESSAGE"
// and exits 1.
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Fitd from 'gi://Fitd?version=1.0';
import System from 'system';

Gio._promisify(Fitd, 'check_run_async', 'check_run_finish');

const num = x => String(x);
const bit = b => (b ? 1 : 0);
const dash = s => s ?? '-';

function describe(report) {
    const out = [['report', report.get_source_language(), report.get_languages().join(','),
        report.get_categories().join(','), report.get_widths().map(num).join(','), report.get_layouts(),
        bit(report.get_fits()), num(report.get_text_scale())]];
    for (const f of report.get_findings()) {
        out.push(['finding', f.get_kind(), f.get_language(), dash(f.get_category()), num(f.get_width()),
            dash(f.get_node()), dash(f.get_text()), f.get_detail(), num(f.get_frame_width()), bit(f.get_failing())]);
    }
    out.push(['failures', report.get_failures().length]);
    for (const w of report.get_worst_strings()) {
        out.push(['worst', w.get_language(), w.get_node(), w.get_text(), num(w.get_natural_width()),
            num(w.get_room()), w.get_category(), num(w.get_width())]);
    }
    for (const c of report.get_candidate_widths()) {
        out.push(['candidate', c.get_decision(), c.get_category(), c.get_candidate(), dash(c.get_candidate_id()),
            dash(c.get_language()), num(c.get_px()), num(c.get_sp()), dash(c.get_fallback_condition()),
            dash(c.get_fallback_condition_px())]);
    }
    return out.map(fields => fields.join('\t')).join('\n');
}

const [document, translations, widths, languages, categories, mode] = ARGV;
const list = arg => (arg === '-' ? null : arg.split(','));
try {
    const report = await Fitd.check_run_async(document, list(translations), widths, list(languages),
        list(categories), mode === 'local', null);
    print(describe(report));
} catch (e) {
    if (!(e instanceof GLib.Error))
        throw e;
    print(`error ${GLib.quark_to_string(e.domain)} ${e.code}: ${e.message}`);
    if (e.matches(Fitd.Error, Fitd.Error.INVALID_ARGUMENT))
        print('matches Fitd.Error.INVALID_ARGUMENT');
    if (e.matches(Fitd.Error, Fitd.Error.INVALID_DOCUMENT))
        print('matches Fitd.Error.INVALID_DOCUMENT');
    if (e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND))
        print('matches Gio.IOErrorEnum.NOT_FOUND');
    System.exit(1);
}
