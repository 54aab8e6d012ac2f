// layout.js: libfitd-client's typed layout API from GJS (the Fitd typelib), printing what
// tests/layout.c prints, for Tests/EndToEnd/c_client_layout.sh to compare.
//
//   gjs -m layout.js layout FILE WIDTH [MIN MAX]   the typed result of a document
//   gjs -m layout.js json TEXT WIDTH               a JSON text; errors as "error DOMAIN CODE: MESSAGE"
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Fitd from 'gi://Fitd?version=1.0';
import System from 'system';

Gio._promisify(Fitd.ClientProxy.prototype, 'layout_json_async', 'layout_json_finish');

// %.17g's equivalent for these figures (multiples of 1/1024): the shortest exact form.
const num = x => String(x);
const bit = b => (b ? 1 : 0);

function describe(result) {
    const out = [`size ${num(result.get_width())} ${num(result.get_height())}`];
    for (const frame of result.get_frames()) {
        let line = `frame ${frame.get_id()} ${bit(frame.get_visible())} ${num(frame.get_x())} ${num(frame.get_y())} ` +
            `${num(frame.get_width())} ${num(frame.get_height())} ${bit(frame.get_is_text())} ${num(frame.get_scale())} ` +
            `${frame.get_line_count()} ${bit(frame.get_truncated())}`;
        const [hasBaselines, first, last] = frame.get_baselines();
        if (hasBaselines)
            line += ` baselines ${num(first)} ${num(last)}`;
        if (frame.get_hidden())
            line += ' hidden';
        if (frame.get_alignment() !== null)
            line += ` alignment ${frame.get_alignment()}`;
        out.push(line);
        if (result.get_frame(frame.get_id()).get_id() !== frame.get_id())
            out.push(`LOOKUP FAILED frame ${frame.get_id()}`);
    }
    for (const decision of result.get_decisions()) {
        out.push(`decision ${decision.get_id()} ${decision.get_kind()} ${decision.get_candidate()} ` +
            `${decision.get_candidate_id() ?? '-'} ${decision.get_axis() ?? '-'} ${num(decision.get_length())} ` +
            `${num(decision.get_scale())}`);
        if (result.get_decision(decision.get_id()).get_id() !== decision.get_id())
            out.push(`LOOKUP FAILED decision ${decision.get_id()}`);
    }
    if (result.get_frame('no such node') !== null || result.get_decision('no such node') !== null)
        out.push('LOOKUP FAILED: an unknown id was found');
    const breakpoints = result.get_breakpoints();
    if (breakpoints !== null) {
        const [min, max] = breakpoints.get_range();
        out.push(`breakpoints ${num(breakpoints.get_min_content_width())} ${num(breakpoints.get_max_content_width())} ` +
            `${num(min)} ${num(max)} ${num(breakpoints.get_text_scale())} ${bit(breakpoints.get_truncated())}`);
        for (const id of breakpoints.get_decision_ids()) {
            for (const interval of breakpoints.get_intervals(id)) {
                out.push(`interval ${id} ${num(interval.get_from())} ${num(interval.get_to())} ` +
                    `${interval.get_candidate()} ${interval.get_axis() ?? '-'} ${num(interval.get_flip())} ` +
                    `${num(interval.get_flip_sp())}`);
            }
        }
        if (breakpoints.get_intervals('no such node') !== null)
            out.push('LOOKUP FAILED: intervals of an unknown id');
    }
    out.push(`truncated ${bit(result.get_truncated())}`);
    return out.join('\n');
}

const [mode, source, width, min, max] = ARGV;
try {
    const fit = Fitd.Client.new_sync(null);
    if (mode === 'layout') {
        const options = {};
        if (min !== undefined)
            options.breakpoints = new GLib.Variant('(dd)', [Number(min), Number(max)]);
        const sent = new GLib.Variant('a{sv}', options);
        const fromFile = fit.layout_file(Gio.File.new_for_path(source), Number(width), Fitd.IDEAL, sent, null);
        const [, bytes] = GLib.file_get_contents(source);
        const json = new TextDecoder().decode(bytes);
        // The async form, awaited as GJS programs do (Gio._promisify above).
        const fromAsync = await fit.layout_json_async(json, Number(width), Fitd.IDEAL, sent, null);
        const a = describe(fromFile), b = describe(fromAsync);
        if (a !== b) {
            printerr(`the file and async JSON layouts differ:\n${a}\n---\n${b}`);
            System.exit(1);
        }
        print(a);
    } else if (mode === 'json') {
        print(describe(fit.layout_json(source, Number(width), Fitd.IDEAL, null, null)));
    } else {
        printerr('usage: layout.js layout FILE WIDTH [MIN MAX] | json TEXT WIDTH');
        System.exit(2);
    }
} catch (e) {
    if (!(e instanceof GLib.Error))
        throw e;
    // Every typed call's refusal is a Fitd.Error (FIT_ERROR) with the daemon's own sentence.
    print(`error ${GLib.quark_to_string(e.domain)} ${e.code}: ${e.message}`);
    if (e.matches(Fitd.Error, Fitd.Error.INVALID_DOCUMENT))
        print('matches Fitd.Error.INVALID_DOCUMENT');
    System.exit(1);
}
