#!/usr/bin/python3
"""Compare fitd's widget sizes with REAL GTK labels (GTK 4 and 3) under X settings variants.

    Tests/oracle/gtk_compare.py                                  # gtk4 + gtk3, all settings
    Tests/oracle/gtk_compare.py --settings none,xsettings --toolkits gtk4 --sample 500
    Tests/oracle/gtk_compare.py --target 99 --report .build/gtk-report.md --failures .build/gtk-failures.jsonl
    Tests/oracle/gtk_compare.py --engine "/usr/bin/python3 Tests/oracle/gtk_labels.py --as-engine"   # must be 100 %
    Tests/oracle/gtk_compare.py --gtk-only                       # GTK's numbers only, no engine

For every settings variant the harness starts its own X server (Xvfb -displayfd: a free
display; -noreset, or the server would reset — and drop xrdb's resources — when its last
client leaves), sets the variant up, measures the corpus (gtk_corpus.jsonl) with real
labels (gtk_labels.py, one process per toolkit) and then with the engine, both in the SAME
environment, and stops what it started.

Settings variants (--settings, comma-separated, or "all"):
    none       no settings daemon, an empty XDG_CONFIG_HOME
    ini        XDG_CONFIG_HOME/gtk-4.0/settings.ini: [Settings] gtk-font-name=Cantarell 13, and
               gtk-3.0/settings.ini: gtk-font-name=DejaVu Serif 12 (each toolkit its own file)
    xft-dpi    `xrdb -nocpp -merge` of "Xft.dpi: 144" on that display (RESOURCE_MANAGER)
    xsettings  xsettingsd on that display: Gtk/FontName "Noto Sans 12", Xft/DPI 147456
    hint-metrics  XDG_CONFIG_HOME/gtk-4.0/settings.ini: [Settings] gtk-hint-font-metrics=true
               (GTK 4.6+: hinted line heights, and with cairo >= 1.17.4 rounded positions;
               GTK 3 has no such setting and measures as with none)
The report says what GTK saw in each (gtk_labels.py --describe) and warns when a variant
is not in effect.

Environment of both sides: DISPLAY, XDG_CONFIG_HOME (the variant's), XDG_DATA_HOME (empty),
FONTCONFIG_FILE=/etc/fonts/fonts.conf (--fonts-conf), XDG_CACHE_HOME=<--cache>/xdg-cache,
LANG=C.UTF-8; GDK_BACKEND=x11, GTK_A11Y=none, NO_AT_BRIDGE=1; unset: LANGUAGE,
PANGO_LANGUAGE, LC_*, GTK_THEME, GDK_SCALE, GDK_DPI_SCALE, GTK_DEBUG, GDK_DEBUG,
WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS (no desktop session leaks in).

The engine (--engine, through the shell; default the debug fitctl, --local) reads one JSON
request a line, as `fitctl measure --batch`:
    {"text", "language", "font" (left out when the case has none), "max_width" (the px width
     GTK was asked for: every mode but plain), "wrap" (wrap and lines modes), "ellipsize",
     "max_lines" (lines mode), "metrics": "gtk4" | "gtk3", "widget": true, "id"}
and is expected to answer {"widget": {"minimum_width", "natural_width", "minimum_height",
"natural_height"}, "lines", "width", "height", "fonts", …}.  widget = what the label's
gtk_widget_measure gives: widths for_size -1, heights for_size max_width (raised to the
minimum width, as both toolkits do) — see gtk_labels.py.  A field the engine does not know
yet (it answers "unknown field") is left out of its requests and named in the report; a
result without "widget" fails with "no widget sizes" (never a silent fallback).

A case passes when all four widget sizes are equal (whole px) and the line count is equal.
Reported per toolkit × settings × font (or none) × mode: % exact natural width, natural
height, minimum width, minimum height, % same line count; the overall figure; the worst
--worst failures.  A case GTK itself cannot measure is an error, never a pass.

Exit status: 0; 1 when --target is given and a toolkit × settings has natural width or
natural height exact below it, or when a GTK case errored; 2 when Xvfb, a settings daemon,
GTK or the engine cannot be started (a skipped comparison is never reported as passed).
The last line printed is "gtk oracle: N passed, N failed".

--cache DIR keeps GTK's results (the slow part), keyed by a hash of each case and of the
environment: toolkit, variant and its files, what GTK reports about itself and its settings
(--describe), the font files fontconfig sees, gtk_labels.py's source.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from desktop_compare import font_inventory, read_jsonl, shown  # noqa: E402

CORPUS = os.path.join(HERE, "gtk_corpus.jsonl")
LABELS = os.path.join(HERE, "gtk_labels.py")
PYTHON = "/usr/bin/python3"
SYSTEM_FONTS_CONF = "/etc/fonts/fonts.conf"
TOOLKITS = ("gtk4", "gtk3")
SETTINGS = ("none", "ini", "xft-dpi", "xsettings", "hint-metrics")
INI_FONT = "Cantarell 13"
INI_FONT_GTK3 = "DejaVu Serif 12"  # GTK 3 reads its own gtk-3.0/settings.ini
XFT_DPI = 144
XSETTINGS_FONT = "Noto Sans 12"
XSETTINGS_DPI = 147456  # 144 dpi × 1024
OPTIONAL_FIELDS = ("widget", "metrics", "language")
SIZES = ("natural_width", "natural_height", "minimum_width", "minimum_height")
SHORT = {"natural_width": "nat w", "natural_height": "nat h", "minimum_width": "min w", "minimum_height": "min h"}


class SetupError(Exception):
    pass


def fail(msg):
    sys.stderr.write("gtk_compare: %s\n" % msg)
    raise SystemExit(2)


# ----------------------------------------------------------- X and settings --
class Variant:
    """An X server on a free display, set up as one settings variant; stop() ends what it started."""

    def __init__(self, name, fonts_conf, cache, log=None):
        if name not in SETTINGS:
            raise SetupError("unknown settings variant %r (%s)" % (name, ", ".join(SETTINGS)))
        self.name = name
        self.procs = []
        self.root = tempfile.mkdtemp(prefix="gtk-oracle-%s-" % name)
        self.config = os.path.join(self.root, "config")
        self.data = os.path.join(self.root, "data")
        os.makedirs(self.config)
        os.makedirs(self.data)
        self.files = {}  # what the variant wrote (part of the cache key)
        self.fonts_conf = fonts_conf
        self.cache = cache
        self.display = None
        self.log = log or (lambda m: None)

    def start(self):
        try:
            self._start_x()
            if self.name == "ini":
                for d, font in (("gtk-4.0", INI_FONT), ("gtk-3.0", INI_FONT_GTK3)):
                    self._write(os.path.join(self.config, d, "settings.ini"),
                                "[Settings]\ngtk-font-name=%s\n" % font)
            elif self.name == "hint-metrics":
                # GTK 4.6+ only (gtksettings.c: "Since: 4.6"); GTK 3 has no such setting and
                # would warn of an unknown key, so its file is left out.
                self._write(os.path.join(self.config, "gtk-4.0", "settings.ini"),
                            "[Settings]\ngtk-hint-font-metrics=true\n")
            elif self.name == "xft-dpi":
                path = self._write(os.path.join(self.root, "Xresources"), "Xft.dpi: %d\n" % XFT_DPI)
                p = subprocess.run(["xrdb", "-nocpp", "-merge", path], env=self.env(), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=20)
                q = subprocess.run(["xrdb", "-query"], env=self.env(), stdout=subprocess.PIPE, timeout=20)
                if p.returncode != 0 or ("Xft.dpi:\t%d" % XFT_DPI) not in q.stdout.decode():
                    raise SetupError("xrdb could not load Xft.dpi onto %s: %s" % (
                        self.display, p.stderr.decode(errors="replace").strip() or q.stdout.decode()))
            elif self.name == "xsettings":
                # xsettingsd's config: one "Name value" a line, strings in double quotes.
                conf = self._write(os.path.join(self.root, "xsettingsd.conf"),
                                   'Gtk/FontName "%s"\nXft/DPI %d\n' % (XSETTINGS_FONT, XSETTINGS_DPI))
                logf = os.path.join(self.root, "xsettingsd.log")
                with open(logf, "wb") as out:
                    try:
                        p = subprocess.Popen(["xsettingsd", "-c", conf], env=self.env(), stdout=out,
                                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
                    except FileNotFoundError:
                        raise SetupError("xsettingsd is not installed (apt-get install xsettingsd)")
                self.procs.append(p)
                deadline = time.time() + 10
                while True:
                    with open(logf, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                    if "Took ownership of selection" in text:
                        break
                    if p.poll() is not None or time.time() > deadline:
                        raise SetupError("xsettingsd did not take the XSETTINGS selection on %s: %s" % (
                            self.display, text.strip()[-400:]))
                    time.sleep(0.05)
        except Exception:
            self.stop()
            raise
        return self

    def _write(self, path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        self.files[os.path.relpath(path, self.root)] = text
        return path

    def _start_x(self):
        r, w = os.pipe()
        try:
            p = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-noreset", "-nolisten", "tcp",
                                  "-screen", "0", "1280x1024x24"], pass_fds=(w,), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except FileNotFoundError:
            os.close(r)
            os.close(w)
            raise SetupError("Xvfb is not installed (apt-get install xvfb)")
        os.close(w)
        self.procs.append(p)
        got = b""
        deadline = time.time() + 20
        while not got.endswith(b"\n"):
            left = deadline - time.time()
            ready = select.select([r], [], [], max(0.0, left))[0] if left > 0 else []
            if not ready:
                break
            chunk = os.read(r, 64)
            if not chunk:
                break
            got += chunk
        os.close(r)
        if not got.strip().isdigit():
            err = b""
            if p.poll() is not None:
                err = p.stderr.read()
            raise SetupError("Xvfb did not start: %s" % (err.decode(errors="replace").strip()[-600:] or "no display number"))
        self.display = ":" + got.strip().decode()
        self.log("Xvfb %s (pid %d) for settings %s" % (self.display, p.pid, self.name))

    def env(self):
        e = dict(os.environ)
        for k in list(e):
            if k.startswith("LC_") or k in ("LANGUAGE", "PANGO_LANGUAGE", "GTK_THEME", "GDK_SCALE", "GDK_DPI_SCALE",
                                            "GTK_DEBUG", "GDK_DEBUG", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
                                            "GTK_MODULES", "GTK_IM_MODULE", "XDG_CURRENT_DESKTOP"):
                del e[k]
        e.update({
            "DISPLAY": self.display or "", "XDG_CONFIG_HOME": self.config, "XDG_DATA_HOME": self.data,
            "FONTCONFIG_FILE": self.fonts_conf, "XDG_CACHE_HOME": os.path.join(self.cache, "xdg-cache"),
            "LANG": "C.UTF-8", "GDK_BACKEND": "x11", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
        })
        return e

    def stop(self):
        for p in reversed(self.procs):  # xsettingsd before its X server
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
            if p.stderr is not None:
                p.stderr.close()
        self.procs = []
        shutil.rmtree(self.root, ignore_errors=True)

    def expected(self, toolkit):
        """What GTK should see (font name, xft dpi), to warn when a variant is not in effect."""
        return {"none": ("Sans 10", 96 * 1024), "ini": (INI_FONT if toolkit == "gtk4" else INI_FONT_GTK3, 96 * 1024), "xft-dpi": ("Sans 10", XFT_DPI * 1024),
                "xsettings": (XSETTINGS_FONT, XSETTINGS_DPI), "hint-metrics": ("Sans 10", 96 * 1024)}[self.name]


def describe(variant, toolkit):
    p = subprocess.run([PYTHON, LABELS, "--toolkit", toolkit, "--describe"], env=variant.env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    out = read_jsonl(p.stdout.decode("utf-8", "replace"))
    if p.returncode != 0 or not out or "error" in out[0]:
        raise SetupError("%s cannot be started on %s (settings %s): %s" % (
            toolkit, variant.display, variant.name, p.stderr.decode("utf-8", "replace").strip()[-800:]))
    return out[0]


# ------------------------------------------------------------------- GTK --
def case_key(case):
    return hashlib.sha256(json.dumps(case, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:32]


def env_key(toolkit, variant, desc, fonts_hash, labels_src):
    d = dict(desc)
    d.pop("display", None)
    h = hashlib.sha256()
    for part in (toolkit, variant.name, json.dumps(variant.files, sort_keys=True), json.dumps(d, sort_keys=True),
                 fonts_hash, labels_src, variant.fonts_conf):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:24]


def run_gtk(toolkit, variant, cases, cache_file):
    """{case id: GTK result}; cached results first, the rest measured (and appended to the cache)."""
    cached = {}
    if cache_file and os.path.exists(cache_file):
        with open(cache_file, encoding="utf-8") as f:
            for r in read_jsonl(f.read()):
                if "key" in r and "result" in r:
                    cached[r["key"]] = r["result"]
    results = {}
    todo = []
    for c in cases:
        k = case_key(c)
        if k in cached:
            results[c["id"]] = dict(cached[k], id=c["id"])
        else:
            todo.append((k, c))
    t0 = time.time()
    if todo:
        text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for _, c in todo)
        p = subprocess.run([PYTHON, LABELS, "--toolkit", toolkit], input=text.encode("utf-8"), env=variant.env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = read_jsonl(p.stdout.decode("utf-8", "replace"))
        by_id = {r.get("id"): r for r in out if isinstance(r, dict)}
        stderr = p.stderr.decode("utf-8", "replace").strip()
        fresh = []
        for k, c in todo:
            r = by_id.get(c["id"])
            if r is None:
                r = {"error": "GTK run failed (exit %d) before this case: %s" % (p.returncode, stderr[-300:]), "id": c["id"]}
            elif "error" not in r:
                fresh.append({"key": k, "result": {x: v for x, v in r.items() if x != "id"}})
            results[c["id"]] = r
        if cache_file and fresh:
            with open(cache_file, "a", encoding="utf-8") as f:
                for r in fresh:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return results, len(todo), time.time() - t0


# ---------------------------------------------------------------- engine --
def run_engine_text(engine, text, env):
    p = subprocess.run(engine, input=text.encode("utf-8"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, shell=True)
    # fitctl measure --batch exits 2 when some lines were refused: each has an "error".
    if p.returncode not in (0, 2):
        sys.stderr.write(p.stderr.decode("utf-8", "replace")[-3000:] + "\n")
        raise SetupError("the engine failed (exit %d): %s" % (p.returncode, engine))
    return read_jsonl(p.stdout.decode("utf-8", "replace"))


def probe_engine(engine, env):
    """The optional request fields the engine knows (an unknown one is refused by name)."""
    reqs = [{"text": "a", "id": "probe"}]
    values = {"widget": True, "metrics": "gtk4", "language": "en"}
    for f in OPTIONAL_FIELDS:
        reqs.append({"text": "a", f: values[f], "id": "probe-" + f})
    out = run_engine_text(engine, "".join(json.dumps(q) + "\n" for q in reqs), env)
    by_id = {r.get("id"): r for r in out if isinstance(r, dict)}
    if "error" in by_id.get("probe", {"error": "no answer"}):
        raise SetupError("the engine cannot measure a plain request: %s" % by_id.get("probe"))
    known = set()
    for f in OPTIONAL_FIELDS:
        err = str(by_id.get("probe-" + f, {}).get("error", ""))
        if not ("unknown field" in err and f in err):
            known.add(f)
    return known


def request_for(case, gtk, toolkit, known):
    q = {"text": case["text"]}
    if "language" in known:
        q["language"] = case["language"]
    if case.get("font"):
        q["font"] = case["font"]
    mode = case.get("mode", "plain")
    if mode != "plain":
        q["max_width"] = gtk["for_width"]
        if case.get("width_chars") is not None and gtk.get("alloc_width") is not None:
            # width-chars can raise the minimum width above the width asked for, and GTK
            # allocates the label the larger (the lines it shows are counted there).
            q["max_width"] = max(gtk["for_width"], gtk["alloc_width"])
    if mode == "wrap":
        q["wrap"] = case.get("wrap", "word")
    elif mode == "ellipsize":
        q["ellipsize"] = case.get("ellipsize", "end")
    elif mode == "lines":
        q["wrap"] = case.get("wrap", "word")
        q["ellipsize"] = case.get("ellipsize", "end")
        q["max_lines"] = int(case.get("lines", 2))
    if "metrics" in known:
        q["metrics"] = toolkit
    if "widget" in known:
        q["widget"] = True
    for f in ("width_chars", "max_width_chars"):
        if case.get(f) is not None:
            q[f] = case[f]
    return q


def with_char_widths(case):
    """The case as a label with width-chars and/or max-width-chars (3-40 characters, chosen
    from a hash of its id), its font (if any) given as the label's CSS font: the font of its
    Pango context, whose characters get_char_pixels counts (gtklabel.c)."""
    h = hashlib.sha1(case["id"].encode()).digest()
    c = dict(case)
    choice = h[0] % 3  # 0: width-chars, 1: max-width-chars, 2: both
    if choice != 1:
        c["width_chars"] = 3 + h[1] % 38
    if choice != 0:
        c["max_width_chars"] = max(c.get("width_chars", 0), 3 + h[2] % 38) if choice == 2 else 3 + h[2] % 38
    if c.get("font"):
        c["font_css"] = True
    return c


def run_engine(engine, env, reqs, jobs):
    """reqs: [(key, request)] → {key: result}; identical requests once; split over --jobs processes."""
    bodies = {}
    for key, q in reqs:
        bodies.setdefault(json.dumps(q, ensure_ascii=False, sort_keys=True), []).append(key)
    items = list(bodies.items())
    shards = [items[k::max(1, jobs)] for k in range(max(1, jobs))]

    def one(shard):
        if not shard:
            return []
        text = "".join(body[:-1] + ', "id": %d}\n' % i for i, (body, _) in enumerate(shard))
        out = run_engine_text(engine, text, env)
        by_id = {r.get("id"): r for r in out if isinstance(r, dict)}
        return [(keys, by_id.get(i)) for i, (_, keys) in enumerate(shard)]

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for answers in pool.map(one, shards):
            for keys, r in answers:
                for k in keys:
                    results[k] = r
    return results


# ----------------------------------------------------------------- judge --
def judge(gtk, eng):
    """(verdict, what, flags): verdict "pass" | "fail" | "error"; flags: per size/lines exact or None."""
    flags = {s: None for s in SIZES}
    flags["lines"] = None
    if gtk is None or "error" in gtk:
        return "error", "GTK error: %s" % (gtk or {}).get("error", "no result"), flags
    if eng is None:
        return "fail", "no engine result", flags
    if "error" in eng:
        return "fail", "engine error: %s" % str(eng["error"])[:120], flags
    if isinstance(eng.get("lines"), int) and not isinstance(eng.get("lines"), bool):
        flags["lines"] = eng["lines"] == gtk["lines"]
    else:
        flags["lines"] = False
    w = eng.get("widget")
    if not isinstance(w, dict):
        for s in SIZES:
            flags[s] = False
        return "fail", "no widget sizes", flags
    what = []
    for s in SIZES:
        v = w.get(s)
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v == gtk["widget"][s]
        flags[s] = ok
        if not ok:
            what.append("%s %s" % (SHORT[s], ("%+g" % (v - gtk["widget"][s])) if isinstance(v, (int, float)) else "missing"))
    if not flags["lines"]:
        what.append("lines %s→%s" % (gtk["lines"], eng.get("lines")))
    return ("pass" if not what else "fail"), ", ".join(what), flags


def magnitude(gtk, eng):
    w = (eng or {}).get("widget")
    if gtk is None or "error" in gtk or not isinstance(w, dict):
        return -1.0
    m = 0.0
    for s in SIZES:
        v = w.get(s)
        m = max(m, abs(v - gtk["widget"][s]) if isinstance(v, (int, float)) else 1e6)
    if eng.get("lines") != gtk["lines"]:
        m += 0.5
    return m


def sample(cases, n):
    """About n cases: strings in the order of a hash of their id (a string's widths stay together)."""
    if n <= 0 or n >= len(cases):
        return cases
    base = lambda c: c["id"].split("-w")[0]
    order = sorted({base(c) for c in cases}, key=lambda b: hashlib.sha1(b.encode()).hexdigest())
    keep, count = set(), 0
    per = {}
    for c in cases:
        per[base(c)] = per.get(base(c), 0) + 1
    for b in order:
        if count >= n:
            break
        keep.add(b)
        count += per[b]
    return [c for c in cases if base(c) in keep]


# ------------------------------------------------------------------ main --
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "fitctl") + " measure --batch --local",
                    help="command reading request JSON lines on stdin (through the shell)")
    ap.add_argument("--gtk-only", action="store_true", help="measure with GTK only (no engine, no pass/fail)")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--toolkits", default="gtk4,gtk3")
    ap.add_argument("--settings", default="all", help="comma-separated of %s, or all" % ", ".join(SETTINGS))
    ap.add_argument("--sample", type=int, default=0, help="about N cases (0 = all)")
    ap.add_argument("--filter", help="only ids starting with this (a locale: \"ja-\")")
    ap.add_argument("--target", type=float, help="%% exact natural width and height every toolkit × settings must reach")
    ap.add_argument("--report", help="write the Markdown report here")
    ap.add_argument("--failures", help="write every failing case here (JSON lines)")
    ap.add_argument("--worst", type=int, default=20, help="failures listed in the report")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build", "gtk-oracle-cache"),
                    help="GTK's results and XDG_CACHE_HOME (fontconfig's cache) of both sides")
    ap.add_argument("--no-cache", action="store_true", help="measure every case with GTK again")
    ap.add_argument("--fonts-conf", default=SYSTEM_FONTS_CONF)
    ap.add_argument("--jobs", type=int, default=2, help="engine processes at once per toolkit")
    ap.add_argument("--char-widths", action="store_true",
                    help="every case a label with width-chars / max-width-chars, its font as CSS (with_char_widths)")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.time()
    log = (lambda m: sys.stderr.write("gtk_compare: %s\n" % m)) if args.verbose else (lambda m: None)

    toolkits = [t.strip() for t in args.toolkits.split(",") if t.strip()]
    for t in toolkits:
        if t not in TOOLKITS:
            fail("unknown toolkit %r (gtk4, gtk3)" % t)
    variants = list(SETTINGS) if args.settings == "all" else [s.strip() for s in args.settings.split(",") if s.strip()]
    for v in variants:
        if v not in SETTINGS:
            fail("unknown settings variant %r (%s, all)" % (v, ", ".join(SETTINGS)))
    if not os.path.exists(PYTHON):
        fail("%s is missing (Debian's python3 with python3-gi)" % PYTHON)
    os.makedirs(os.path.join(args.cache, "xdg-cache"), exist_ok=True)
    try:
        with open(args.corpus, encoding="utf-8") as f:
            cases = read_jsonl(f.read())
    except OSError as e:
        fail("cannot read the corpus: %s" % e)
    bad = [c for c in cases if "id" not in c or "text" not in c]
    if bad:
        fail("corpus lines without id/text: %s" % bad[:3])
    if args.filter:
        cases = [c for c in cases if str(c["id"]).startswith(args.filter)]
    cases = sample(cases, args.sample)
    if args.char_widths:
        cases = [with_char_widths(c) for c in cases]
    if not cases:
        fail("no cases to measure")
    by_id = {c["id"]: c for c in cases}
    with open(LABELS, encoding="utf-8") as f:
        labels_src = f.read()

    # SIGTERM / Ctrl-C: stop the X servers and daemons started so far.
    def on_signal(signum, frame):
        raise SystemExit(2)
    signal.signal(signal.SIGTERM, on_signal)

    runs = []  # one per (variant, toolkit): dict
    known_fields = None
    fonts_hash = None
    for vname in variants:
        variant = Variant(vname, args.fonts_conf, args.cache, log)
        try:
            variant.start()
            env = variant.env()
            if fonts_hash is None:
                fonts_hash, _ = font_inventory(env)
            descs = {t: describe(variant, t) for t in toolkits}
            gtk_results = {}
            timings = {}

            def gtk_one(t):
                cache_file = None
                if not args.no_cache:
                    cache_file = os.path.join(args.cache, "gtk-%s-%s-%s.jsonl" % (
                        t, vname, env_key(t, variant, descs[t], fonts_hash, labels_src)))
                return t, run_gtk(t, variant, cases, cache_file)

            with concurrent.futures.ThreadPoolExecutor(max_workers=len(toolkits)) as pool:
                for t, (res, measured, secs) in pool.map(gtk_one, toolkits):
                    gtk_results[t] = res
                    timings[t] = {"gtk_measured": measured, "gtk_cached": len(cases) - measured, "gtk_s": secs}
            log("settings %s: GTK done (%s)" % (vname, ", ".join("%s %d measured in %.1f s" % (
                t, timings[t]["gtk_measured"], timings[t]["gtk_s"]) for t in toolkits)))
            engine_results = {t: {} for t in toolkits}
            if not args.gtk_only:
                if known_fields is None:
                    known_fields = probe_engine(args.engine, env)
                te = time.time()

                def engine_one(t):
                    reqs = []
                    for c in cases:
                        g = gtk_results[t].get(c["id"])
                        if g is not None and "error" not in g:
                            reqs.append((c["id"], request_for(c, g, t, known_fields)))
                    return t, run_engine(args.engine, env, reqs, args.jobs)

                # One engine run per toolkit (each split over --jobs processes), both at once.
                with concurrent.futures.ThreadPoolExecutor(max_workers=len(toolkits)) as pool:
                    for t, answers in pool.map(engine_one, toolkits):
                        engine_results[t] = answers
                for t in toolkits:
                    timings[t]["engine_s"] = time.time() - te
                log("settings %s: engine done in %.1f s" % (vname, time.time() - te))
            for t in toolkits:
                exp_font, exp_dpi = variant.expected(t)
                seen = descs[t]["settings"]
                warn = None
                if seen.get("gtk-font-name") != exp_font or seen.get("gtk-xft-dpi") != exp_dpi:
                    warn = "GTK sees gtk-font-name %r, gtk-xft-dpi %r; the variant meant %r, %r" % (
                        seen.get("gtk-font-name"), seen.get("gtk-xft-dpi"), exp_font, exp_dpi)
                    sys.stderr.write("gtk_compare: warning: %s %s: %s\n" % (t, vname, warn))
                runs.append({"toolkit": t, "settings": vname, "describe": descs[t], "gtk": gtk_results[t],
                             "engine": engine_results[t], "timings": timings[t], "warning": warn})
        except SetupError as e:
            variant.stop()
            fail(str(e))
        except BaseException:
            variant.stop()
            raise
        variant.stop()
    t_total = time.time() - t0

    # ------------------------------------------------------------ score --
    stats = {}  # key tuple → counters
    failures = []
    errors = 0
    passed = failed = 0

    def bump(key, verdict, flags):
        s = stats.setdefault(key, {"n": 0, "pass": 0, "error": 0, "lines_n": 0,
                                   **{f: 0 for f in SIZES}, "lines": 0})
        s["n"] += 1
        s["pass"] += verdict == "pass"
        s["error"] += verdict == "error"
        for f in SIZES:
            s[f] += bool(flags[f])
        s["lines"] += bool(flags["lines"])

    for run in runs:
        t, v = run["toolkit"], run["settings"]
        for c in cases:
            g = run["gtk"].get(c["id"])
            e = run["engine"].get(c["id"])
            if args.gtk_only:
                verdict = "error" if (g is None or "error" in g) else "gtk-only"
                flags = {f: False for f in SIZES}
                flags["lines"] = False
                what = (g or {}).get("error", "") if verdict == "error" else ""
            else:
                verdict, what, flags = judge(g, e)
            font = c.get("font") or "none"
            mode = c.get("mode", "plain")
            for key in ((t, v, "all", "all"), (t, v, font, mode), (t, v, font, "all"), (t, v, "all", mode),
                        ("all", "all", "all", "all")):
                bump(key, verdict, flags)
            if verdict == "error":
                errors += 1
            if verdict == "pass":
                passed += 1
            elif verdict != "gtk-only":
                failed += 1
                failures.append({"id": c["id"], "toolkit": t, "settings": v, "verdict": verdict, "what": what,
                                 "magnitude": magnitude(g, e),
                                 "case": {k: x for k, x in c.items() if k != "id"}, "gtk": g, "engine": e})

    pct = lambda s, f: 100.0 * s[f] / s["n"] if s["n"] else 100.0
    missed = []
    if args.target is not None and not args.gtk_only:
        for run in runs:
            s = stats[(run["toolkit"], run["settings"], "all", "all")]
            for f in ("natural_width", "natural_height"):
                if pct(s, f) < args.target:
                    missed.append("%s %s %s %.2f %%" % (run["toolkit"], run["settings"], SHORT[f], pct(s, f)))

    # ----------------------------------------------------------- report --
    L = []
    L.append("# fitd vs real GTK labels\n")
    L.append("corpus `%s`: %d cases%s; toolkits %s; settings %s; fonts `%s`; engine %s.\n" % (
        os.path.relpath(args.corpus, ROOT), len(cases),
        " (sample of ~%d)" % args.sample if args.sample else "", ", ".join(toolkits), ", ".join(variants),
        args.fonts_conf, "— (GTK only)" if args.gtk_only else "`%s`" % args.engine))
    if not args.gtk_only:
        missing = [f for f in OPTIONAL_FIELDS if f not in (known_fields or set())]
        if missing:
            L.append("**The engine does not know the field%s %s yet**: left out of its requests%s.\n" % (
                "s" if len(missing) > 1 else "", ", ".join("`%s`" % f for f in missing),
                "; every case fails with \"no widget sizes\"" if "widget" in missing else ""))
        L.append("pass = the four widget sizes (gtk_widget_measure: widths for -1, heights for the case's "
                 "width) equal to the pixel and the same line count.%s\n" % (
                     " Target: natural width and height exact in ≥ %.2f %% of each toolkit × settings." % args.target
                     if args.target is not None else ""))
        total = stats.get(("all", "all", "all", "all"), {"n": 0, "pass": 0})
        L.append("**%s** — %.2f %% exact overall (%d/%d); %d GTK errors; %.0f s.\n" % (
            "FAIL (%s)" % "; ".join(missed + (["%d GTK errors" % errors] if errors else []))
            if missed or errors else ("PASS" if args.target is not None else "no target"),
            pct(total, "pass"), total["pass"], total["n"], errors, t_total))
    L.append("## What GTK saw\n")
    L.append("| toolkit | settings | gtk-font-name | Xft DPI | label font (context) | an unstyled label's face | "
             "GTK: measured (s), cached | engine s |")
    L.append("|---|---|---|---|---|---|---|---|")
    for run in runs:
        d = run["describe"]
        tm = run["timings"]
        L.append("| %s %s | %s | %s | %s | %s | %s | %d (%.1f s), %d | %s |%s" % (
            run["toolkit"], d.get("version"), run["settings"], d["settings"].get("gtk-font-name"),
            d["settings"].get("gtk-xft-dpi", 0) / 1024.0 if d["settings"].get("gtk-xft-dpi") else "—",
            d.get("context_font"), ", ".join(d.get("default_faces", [])), tm["gtk_measured"], tm["gtk_s"], tm["gtk_cached"],
            "%.1f" % tm["engine_s"] if "engine_s" in tm else "—",
            " ⚠ %s" % run["warning"] if run["warning"] else ""))
    L.append("")
    if not args.gtk_only:
        def row(label, s):
            return "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d |" % (
                label, s["n"], pct(s, "pass"), pct(s, "natural_width"), pct(s, "natural_height"),
                pct(s, "minimum_width"), pct(s, "minimum_height"), pct(s, "lines"), s["error"])
        head = ("| {} | cases | exact % | nat w % | nat h % | min w % | min h % | lines % | GTK errors |\n"
                "|---|---|---|---|---|---|---|---|---|")
        L.append("## Per toolkit × settings\n")
        L.append(head.format("toolkit × settings"))
        for run in runs:
            L.append(row("%s %s" % (run["toolkit"], run["settings"]),
                         stats[(run["toolkit"], run["settings"], "all", "all")]))
        L.append(row("**all**", stats[("all", "all", "all", "all")]))
        L.append("")
        fonts = sorted({c.get("font") or "none" for c in cases}, key=lambda f: (f != "none", f))
        modes = [m for m in ("plain", "ellipsize", "wrap", "lines") if any(c.get("mode", "plain") == m for c in cases)]
        L.append("## Per toolkit × settings × font × mode\n")
        L.append(head.format("toolkit · settings · font · mode"))
        for run in runs:
            for font in fonts:
                for mode in modes + ["all"]:
                    s = stats.get((run["toolkit"], run["settings"], font, mode))
                    if s:
                        L.append(row("%s · %s · %s · %s" % (run["toolkit"], run["settings"], font, mode), s))
        L.append("")
        # The worst failures, one row per case (its worst toolkit × settings; how many more fail).
        ranked = sorted(failures, key=lambda f: (f["verdict"] != "error", -f["magnitude"], f["id"], f["toolkit"],
                                                 f["settings"]))
        per_case = {}
        for f_ in failures:
            per_case[f_["id"]] = per_case.get(f_["id"], 0) + 1
        worst, seen = [], set()
        for f_ in ranked:
            if f_["id"] not in seen:
                seen.add(f_["id"])
                worst.append(f_)
            if len(worst) >= args.worst:
                break

        def fmt_gtk(g):
            if not g or "error" in g:
                return "error: %s" % str((g or {}).get("error", "none"))[:80].replace("|", "\\|")
            w = g["widget"]
            return "%d/%d × %d/%d, %d lines%s" % (w["minimum_width"], w["natural_width"], w["minimum_height"],
                                                  w["natural_height"], g["lines"], " …" if g.get("ellipsized") else "")

        def fmt_eng(e):
            if not e:
                return "—"
            if "error" in e:
                return "error: %s" % str(e["error"])[:80].replace("|", "\\|")
            w = e.get("widget")
            layout = "layout %s×%s, %s lines" % (e.get("width"), e.get("height"), e.get("lines"))
            if isinstance(w, dict):
                return "%s/%s × %s/%s, %s lines" % (w.get("minimum_width"), w.get("natural_width"),
                                                    w.get("minimum_height"), w.get("natural_height"), e.get("lines"))
            return "no widget; " + layout

        L.append("## Worst %d failures (one row per case)\n" % len(worst))
        L.append("GTK and fitd: min/nat width × min/nat height (px), lines. Faces: the fonts GTK's runs used; "
                 "fitd's `fonts`.\n")
        L.append("| id | toolkit · settings | language | font | mode, width | text | GTK | fitd | differs | faces GTK / fitd |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")
        for f_ in worst:
            c, g, e = f_["case"], f_["gtk"] or {}, f_["engine"] or {}
            mode = c.get("mode", "plain")
            detail = {"ellipsize": c.get("ellipsize"), "wrap": c.get("wrap"),
                      "lines": "%s lines, %s" % (c.get("lines"), c.get("ellipsize"))}.get(mode)
            more = per_case[f_["id"]] - 1
            L.append("| %s | %s · %s%s | %s | %s | %s%s%s | %s | %s | %s | %s | %s / %s |" % (
                f_["id"], f_["toolkit"], f_["settings"], " (+%d more)" % more if more else "", c.get("language"), c.get("font") or "none", mode,
                " %s" % detail if detail else "", " @ %s px" % g["for_width"] if g.get("for_width") is not None else "",
                shown(c.get("text", "")[:90]), fmt_gtk(g), fmt_eng(e), f_["what"].replace("|", "\\|"),
                ", ".join(g.get("faces", [])), ", ".join(e.get("fonts", []) if isinstance(e.get("fonts"), list) else [])))
        L.append("")
    report = "\n".join(L) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(report)
        print(report.split("## Per toolkit × settings × font")[0].rstrip())
        print("\nfull report: %s" % args.report)
    else:
        print(report)
    if args.failures:
        with open(args.failures, "w", encoding="utf-8") as f:
            for f_ in failures:
                f.write(json.dumps(f_, ensure_ascii=False) + "\n")
    if args.gtk_only:
        n = sum(1 for run in runs for c in cases)
        print("gtk oracle: GTK only, %d measured, %d GTK errors (no comparison)" % (n - errors, errors))
        return 1 if errors else 0
    if errors:
        print("gtk oracle: %d GTK errors (counted as failed)" % errors)
    print("gtk oracle: %d passed, %d failed" % (passed, failed))
    return 1 if (missed or errors) else 0


if __name__ == "__main__":
    sys.exit(main())
