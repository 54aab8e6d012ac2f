// measure.js: measures a text and resolves its font through fitd, with libfitd-client's
// typelib (GObject Introspection), printing what examples/measure.c prints.
//
//   gjs -m measure.js "Hello, world" "DejaVu Sans 12" [MAX_WIDTH]
//
// With the library outside the system paths: GI_TYPELIB_PATH=PREFIX/lib/girepository-1.0
// LD_LIBRARY_PATH=PREFIX/lib.
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Fitd from 'gi://Fitd?version=1.0';
import System from 'system';

const [text, font, maxWidth] = ARGV;
if (ARGV.length < 2 || ARGV.length > 3) {
    printerr('usage: measure.js TEXT FONT [MAX_WIDTH]');
    System.exit(2);
}

// %.17g's shortest round-tripping equivalent: JavaScript prints the shortest exact form.
const num = x => String(x);

try {
    const fit = Fitd.Client.new_sync(null);
    const options = {};
    if (maxWidth !== undefined) {
        const value = Number(maxWidth);
        if (maxWidth.trim() === '' || Number.isNaN(value)) {
            printerr(`MAX_WIDTH is not a number: ${maxWidth}`);
            System.exit(2);
        }
        options.max_width = new GLib.Variant('d', value);
    }
    const [, metrics] = fit.call_measure_sync(text, font, new GLib.Variant('a{sv}', options), null);
    // Metrics (dddubbasa(dddduusb)t): width, height, baseline, line count, ellipsized,
    // truncated, fonts, lines, generation.
    const [width, height, baseline, lines, , truncated, fonts] = metrics.deepUnpack();
    print(`width ${num(width)}\nheight ${num(height)}\nbaseline ${num(baseline)}`);
    print(`lines ${lines}\ntruncated ${truncated}\nfonts ${fonts.join(', ')}`);

    const [, resolved] = fit.call_resolve_font_sync(font, null);
    const [description, family, , , file, pixelSize] = resolved.deepUnpack();
    print(`resolved ${description}\nfamily ${family}\nfile ${file}\npixel-size ${num(pixelSize)}`);
    // Properties: the proxy's cached values (GObject properties of the generated interface).
    print(`ui-font ${fit.ui_font}\ntext-scale ${num(fit.text_scale)}`);
} catch (e) {
    if (e instanceof GLib.Error) {
        // The name the daemon replied with, before the message loses its "GDBus.Error:NAME: ".
        const name = Gio.DBusError.get_remote_error(e);
        Gio.DBusError.strip_remote_error(e);
        printerr(`error: ${GLib.quark_to_string(e.domain)} ${e.code}: ${e.message}`);
        // Fitd.Error is the FIT_ERROR domain: e.g. e.matches(Fitd.Error, Fitd.Error.INVALID_FONT).
        if (e.matches(Fitd.Error, e.code))
            printerr(`fit error ${name}`);
        System.exit(1);
    }
    throw e;
}
