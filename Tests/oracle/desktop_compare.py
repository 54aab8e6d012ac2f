#!/usr/bin/python3
"""Compare fitd with Pango 1.50 on a real desktop: the system's fonts, every locale, GTK 4 and 3.

    Tests/oracle/desktop_compare.py                       # debug fitctl, 14 locales, gtk4 + gtk3
    Tests/oracle/desktop_compare.py --target 99.5 --report .build/desktop-report.md
    Tests/oracle/desktop_compare.py --locales en-us,bn --modes gtk4 --filter wrap-
    Tests/oracle/desktop_compare.py --engine "fitctl measure --batch" --sample 0

The corpus (desktop_corpus.jsonl, no "language" in its cases) is run once per locale and
per metrics mode: each case gets "language" (the locale's Pango language) and "metrics"
("gtk4" | "gtk3"); the oracle (pango_measure.py) and the engine (`fitctl measure --batch`,
the same JSON lines) measure every case with the system's fontconfig
(FONTCONFIG_FILE=/etc/fonts/fonts.conf unless --fonts-conf) and their own XDG_CACHE_HOME.

An engine that does not know a field yet (it answers "unknown field" for "language",
"metrics" or "markup") is still measured: that field is left out of its requests and the
report says so; a missing "language" is stood in for by running the engine once per locale
with LC_ALL/LANG set to the locale (the process default an unpatched engine reads).  So
the same command scores today's engine and, unchanged, the engine once the fields land.

LANGUAGE / PANGO_LANGUAGE (Pango's preferred languages) are unset for both sides unless
--preferred-languages sets LANGUAGE for both.

A case is ok when: width within max(0.5 px, 0.5 %), height within 1 px, same line count and
same ellipsized flag; a case Pango rejects (malformed markup) is ok when the engine rejects
it too.  Exit 1 when some locale × mode is below --target % ok, 2 on a usage/run error.

--sample N: every case in the --full-locales (default en-us and c), and in every other
locale a fixed stratified sample of about N cases (the same share of every group, the
"min" group always whole, chosen by a hash of locale + id): for a quicker run.  0 = all.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "desktop_corpus.jsonl")
ORACLE = os.path.join(HERE, "pango_measure.py")
SYSTEM_FONTS_CONF = "/etc/fonts/fonts.conf"

# Locale → (POSIX locale for LC_ALL, the language GTK would give Pango for it:
# pango_language_get_default → pango_language_from_string(setlocale(LC_CTYPE)), which
# lower-cases, maps '_' to '-' and stops at '.'; so "C.UTF-8" → "c").
LOCALES = {
    "en-us": ("en_US.UTF-8", "en-us"), "c": ("C.UTF-8", "c"), "de": ("de_DE.UTF-8", "de-de"),
    "ru": ("ru_RU.UTF-8", "ru-ru"), "ja": ("ja_JP.UTF-8", "ja-jp"), "zh-cn": ("zh_CN.UTF-8", "zh-cn"),
    "ko": ("ko_KR.UTF-8", "ko-kr"), "ar": ("ar_EG.UTF-8", "ar-eg"), "he": ("he_IL.UTF-8", "he-il"),
    "hi": ("hi_IN.UTF-8", "hi-in"), "bn": ("bn_IN.UTF-8", "bn-in"), "ta": ("ta_IN.UTF-8", "ta-in"),
    "th": ("th_TH.UTF-8", "th-th"), "ka": ("ka_GE.UTF-8", "ka-ge"),
    "fr": ("fr_FR.UTF-8", "fr-fr"), "vi": ("vi_VN.UTF-8", "vi-vn"), "el": ("el_GR.UTF-8", "el-gr"),
    "fa": ("fa_IR.UTF-8", "fa-ir"), "zh-tw": ("zh_TW.UTF-8", "zh-tw"), "uk": ("uk_UA.UTF-8", "uk-ua"),
}
DEFAULT_LOCALES = "en-us,c,de,ru,ja,zh-cn,ko,ar,he,hi,bn,ta,th,ka"
NEW_FIELDS = ("language", "metrics", "markup")
# The families the desktop set must provide (a missing package would make every number moot).
REQUIRED_FAMILIES = ["Cantarell", "Liberation Sans", "Noto Sans", "Noto Sans Mono", "Noto Sans CJK JP",
                     "Hack", "Roboto", "FontAwesome", "Symbola", "FreeSans", "Nimbus Sans", "DejaVu Sans",
                     "Droid Sans Fallback", "OpenSymbol", "Noto Color Emoji"]


def fail(msg):
    sys.stderr.write("desktop_compare: %s\n" % msg)
    raise SystemExit(2)


def read_jsonl(text):
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            out.append({"error": "unparsable output line: %s" % exc})
    return out


def base_env(args):
    env = dict(os.environ)
    env["FONTCONFIG_FILE"] = args.fonts_conf
    env["XDG_CACHE_HOME"] = args.cache
    for k in ("PANGO_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LANG"):
        env.pop(k, None)
    if args.preferred_languages is not None:
        env["LANGUAGE"] = args.preferred_languages
    return env


def run(cmd, stdin_text, env, shell, what):
    p = subprocess.run(cmd, input=stdin_text.encode("utf-8"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, shell=shell)
    # fitctl measure --batch exits 2 when some lines were refused: each has an "error",
    # compared like any other result.
    if p.returncode not in (0, 2):
        sys.stderr.write(p.stderr.decode("utf-8", "replace")[-4000:])
        fail("%s failed (%d): %s" % (what, p.returncode, cmd))
    return read_jsonl(p.stdout.decode("utf-8"))


def font_inventory(env):
    """(hash of the font files fontconfig sees, families) — part of the oracle cache key."""
    p = subprocess.run(["fc-list", "--format", "%{file}|%{family}\n"], stdout=subprocess.PIPE, env=env)
    lines = sorted(set(p.stdout.decode("utf-8", "replace").splitlines()))
    h = hashlib.sha256()
    families = set()
    for line in lines:
        path, _, fam = line.partition("|")
        try:
            st = os.stat(path)
            h.update(("%s %d %d\n" % (path, st.st_size, int(st.st_mtime))).encode())
        except OSError:
            h.update((path + "\n").encode())
        families.update(f.strip() for f in fam.split(","))
    return h.hexdigest(), families


def pango_version():
    p = subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('Pango','1.0'); "
                        "from gi.repository import Pango; print(Pango.version_string())"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return p.stdout.decode().strip() or "unknown"


def probe_engine(engine, env):
    """Which of the new request fields the engine knows (an unknown one is rejected by name)."""
    lines = [{"text": "a", "font": "sans-serif 10", "id": "probe-none"}]
    values = {"language": "en-us", "metrics": "gtk3", "markup": True}
    for f in NEW_FIELDS:
        lines.append({"text": "a", "font": "sans-serif 10", f: values[f], "id": "probe-" + f})
    out = run(engine, "".join(json.dumps(q) + "\n" for q in lines), env, True, "engine probe")
    by_id = {r.get("id"): r for r in out if isinstance(r, dict)}
    if "error" in by_id.get("probe-none", {"error": "no answer"}):
        fail("the engine cannot measure a plain request: %s" % by_id.get("probe-none"))
    known = set()
    for f in NEW_FIELDS:
        r = by_id.get("probe-" + f, {})
        err = str(r.get("error", ""))
        if not ("unknown field" in err or ("unknown" in err and f in err)):
            known.add(f)
    return known


_families = {}


def family_of(font):
    """The family a case asks for, as Pango parses the description (style, size, variations off)."""
    fam = _families.get(font)
    if fam is None:
        import gi
        gi.require_version("Pango", "1.0")
        from gi.repository import Pango
        fam = _families[font] = Pango.FontDescription.from_string(font or "").get_family() or "(default)"
    return fam


def group_of(case_id):
    return case_id.rsplit("-", 1)[0]


def stratified_sample(cases, locale, n):
    """About n cases, the same share of each group, "min" whole; fixed by hash(locale, id)."""
    if n <= 0 or n >= len(cases):
        return cases
    share = float(n) / len(cases)
    by_group = {}
    for c in cases:
        by_group.setdefault(group_of(c["id"]), []).append(c)
    keep = set()
    for g, items in by_group.items():
        if g == "min":
            keep.update(c["id"] for c in items)
            continue
        ranked = sorted(items, key=lambda c: hashlib.sha1((locale + "/" + c["id"]).encode()).hexdigest())
        keep.update(c["id"] for c in ranked[: max(1, int(round(len(items) * share)))])
    return [c for c in cases if c["id"] in keep]


def width_ok(a, b):
    return abs(a - b) <= max(0.5, 0.005 * abs(b))


def judge(p, e):
    """(ok, what differs)"""
    if p is None:
        return False, "no Pango result"
    if "error" in p:
        if e is not None and "error" in e:
            return True, ""
        return False, "Pango rejects (%s), engine measures" % p["error"][:60]
    if e is None or "error" in e or not isinstance(e.get("width"), (int, float)):
        return False, "engine error: %s" % (e or {}).get("error", "no result")
    what = []
    dw = e["width"] - p["width"]
    dh = (e.get("height") or 0) - p["height"]
    if not width_ok(e["width"], p["width"]):
        what.append("width %+.2f" % dw)
    if abs(dh) > 1.0:
        what.append("height %+.2f" % dh)
    if e.get("lines") != p["lines"] or bool(e.get("ellipsized")) != bool(p["ellipsized"]):
        what.append("lines %s→%s%s" % (p["lines"], e.get("lines"),
                                       "" if bool(e.get("ellipsized")) == bool(p["ellipsized"])
                                       else ", ellipsized %s→%s" % (p["ellipsized"], e.get("ellipsized"))))
    return not what, ", ".join(what)


# ------------------------------------------------------------- causes ------
def _has(text, lo, hi):
    return any(lo <= ord(ch) <= hi for ch in text)


SPECIAL_SPACES = "\u00a0\u202f\u2009\u3000\u2007\u2002\u2003\u200a"


def scripts_in(text):
    s = set()
    for ch in text:
        o = ord(ch)
        if 0x41 <= o <= 0x24F and ch.isalpha():
            s.add("Latin")
        elif 0x0370 <= o <= 0x03FF:
            s.add("Greek")
        elif 0x0400 <= o <= 0x04FF:
            s.add("Cyrillic")
        elif 0x0590 <= o <= 0x05FF:
            s.add("Hebrew")
        elif 0x0600 <= o <= 0x06FF or 0xFB50 <= o <= 0xFEFF:
            s.add("Arabic")
        elif 0x0900 <= o <= 0x0DFF:
            s.add("Indic")
        elif 0x0E00 <= o <= 0x0E7F:
            s.add("Thai")
        elif 0x10A0 <= o <= 0x10FF:
            s.add("Georgian")
        elif 0x1100 <= o <= 0x11FF or 0xAC00 <= o <= 0xD7AF:
            s.add("Hangul")
        elif 0x3040 <= o <= 0x30FF:
            s.add("Kana")
        elif 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF:
            s.add("Han")
        elif 0xE000 <= o <= 0xF8FF:
            s.add("PUA")
        elif o >= 0x1F000:
            s.add("Emoji")
    return s


def guess_cause(case, locale, mode, stripped, what, ok_in_gtk4, ok_in_en_us):
    """A best guess at which class (desktop_corpus.MINIMAL) or which missing feature a failure is.

    ok_in_gtk4 / ok_in_en_us: whether the same case passes in gtk4 mode (same locale) / in
    en-us (same mode), or None when that was not measured."""
    text = case.get("text", "")
    font = case.get("font", "")
    sc = scripts_in(text)
    if case.get("markup"):
        return "markup (engine %s)" % ("ignores the field" if "markup" in stripped else "differs")
    if what.startswith("Pango rejects") or what.startswith("engine error"):
        return "errors: " + what.split(":")[0].split("(")[0].strip()
    if "@" in font:
        return "font variations (@axis=value)"
    if mode == "gtk3" and ok_in_gtk4:
        return "gtk3 metrics%s" % (" (engine ignores the field)" if "metrics" in stripped else "")
    if locale != "en-us" and ok_in_en_us:
        return "1 language c" if locale == "c" else "2 language table / derived language"
    lines_off = "lines" in what
    wrap = case.get("wrap", "word")
    if case.get("max_width") is not None and (case.get("ellipsize") or "none") == "none":
        if "Thai" in sc:
            return "10 Thai line breaks (libthai)"
        if wrap == "word-char" and "  " in text:
            return "11 word-char between two spaces"
        if wrap == "char" and "Indic" in sc:
            return "12 conjunct breaks with char wrap"
        if wrap != "word" and sc & {"Arabic", "Indic", "Latin", "Hebrew", "Cyrillic", "Greek"}:
            return "9 re-shaping at breaks inside words"
    if (case.get("ellipsize") or "none") != "none":
        return "8 ellipsis font / ellipsizing"
    if lines_off:
        return "line breaking (other)"
    if "PUA" in sc:
        return "3/6 icons: trailing space moves, PUA script-neutral"
    if any(ch in text for ch in SPECIAL_SPACES):
        return "4 special spaces keep the run font"
    if "width" not in what and len(sc - {"PUA", "Emoji"}) >= 2:
        return "5 baseline shift"
    if any(ch in text for ch in "“”‘’«»「」()[]{}\"'") and sc - {"Latin"}:
        return "7 paired punctuation"
    if " " in text and not text.isascii():
        return "3 trailing spaces move to the next run"
    return "other"


def shown(text):
    """Text for a Markdown cell: invisible and private-use characters as \\uXXXX."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch in SPECIAL_SPACES or 0xE000 <= o <= 0xF8FF or o < 0x20 or 0x200B <= o <= 0x200F \
                or 0x2028 <= o <= 0x202E or 0x2060 <= o <= 0x206F or o == 0xFEFF:
            out.append("\\u%04x" % o)
        elif ch == "|":
            out.append("\\|")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# --------------------------------------------------------------- main ------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "fitctl") + " measure --batch --local",
                    help="command reading request JSON lines on stdin (through the shell)")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--locales", default=DEFAULT_LOCALES, help="comma-separated (known: %s)" % ",".join(LOCALES))
    ap.add_argument("--modes", default="gtk4,gtk3")
    ap.add_argument("--target", type=float, default=99.5, help="%% ok every locale × mode must reach")
    ap.add_argument("--sample", type=int, default=0, help="cases per non-full locale (0 = all)")
    ap.add_argument("--full-locales", default="en-us,c")
    ap.add_argument("--filter", help="only ids starting with this prefix (e.g. wrap-)")
    ap.add_argument("--fonts-conf", default=SYSTEM_FONTS_CONF)
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build", "desktop-oracle-cache"),
                    help="XDG_CACHE_HOME for both sides, and where Pango's results are kept")
    ap.add_argument("--no-oracle-cache", action="store_true")
    ap.add_argument("--jobs", type=int, default=2, help="engine processes at once (default 2)")
    ap.add_argument("--preferred-languages", metavar="LIST", help="LANGUAGE for both sides (default: unset)")
    ap.add_argument("--report", help="write the Markdown report here")
    ap.add_argument("--failures", help="write every failing case here (JSON lines)")
    ap.add_argument("--examples", type=int, default=12, help="failing cases listed per cause")
    args = ap.parse_args()
    t0 = time.time()

    locales = [l.strip() for l in args.locales.split(",") if l.strip()]
    for l in locales:
        if l not in LOCALES:
            fail("unknown locale %r (known: %s)" % (l, ", ".join(LOCALES)))
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for m in modes:
        if m not in ("gtk4", "gtk3"):
            fail("unknown mode %r (gtk4, gtk3)" % m)
    full = set(l.strip() for l in args.full_locales.split(","))
    os.makedirs(args.cache, exist_ok=True)
    env = base_env(args)

    fonts_hash, families = font_inventory(env)
    missing = [f for f in REQUIRED_FAMILIES if f not in families]
    if missing:
        fail("desktop fonts missing under %s: %s (run scripts/bootstrap)" % (args.fonts_conf, ", ".join(missing)))

    with open(args.corpus, encoding="utf-8") as f:
        cases = read_jsonl(f.read())
    if args.filter:
        cases = [c for c in cases if str(c.get("id", "")).startswith(args.filter)]

    # The requests: case × locale × mode.
    reqs = []  # (rid, locale, mode, case, request)
    for loc in locales:
        chosen = cases if loc in full else stratified_sample(cases, loc, args.sample)
        for mode in modes:
            for c in chosen:
                q = dict(c)
                q.setdefault("language", LOCALES[loc][1])
                q["metrics"] = mode
                rid = "%s/%s/%s" % (loc, mode, c["id"])
                q["id"] = rid
                reqs.append((rid, loc, mode, c, q))

    # Pango, cached by corpus + Pango + fonts + oracle + LANGUAGE.
    oracle_text = "".join(json.dumps(q, ensure_ascii=False, sort_keys=True) + "\n" for _, _, _, _, q in reqs)
    key = hashlib.sha256()
    for part in (oracle_text, pango_version(), fonts_hash, open(ORACLE, "rb").read().decode("utf-8", "replace"),
                 str(args.preferred_languages)):
        key.update(part.encode("utf-8"))
        key.update(b"\0")
    cache_file = os.path.join(args.cache, "pango-%s.jsonl" % key.hexdigest()[:24])
    pango_results = {}
    pango_thread = None
    t_pango_box = []
    cached = os.path.exists(cache_file) and not args.no_oracle_cache
    if cached:
        with open(cache_file, encoding="utf-8") as f:
            pango_results = {r.get("id"): r for r in read_jsonl(f.read())}
    else:
        def run_oracle():
            out = run(["/usr/bin/python3", ORACLE], oracle_text, env, False, "Pango oracle")
            pango_results.update({r.get("id"): r for r in out})
            tmp = cache_file + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                for r in out:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
            os.replace(tmp, cache_file)
            t_pango_box.append(time.time() - t0)
        pango_thread = threading.Thread(target=run_oracle)
        pango_thread.start()

    # The engine: fields it does not know yet are left out; without "language" the locale
    # comes from LC_ALL/LANG, so it runs once per locale.  Identical requests run once.
    known = probe_engine(args.engine, env)
    stripped = [f for f in NEW_FIELDS if f not in known]
    if "language" in stripped and "--local" not in args.engine:
        sys.stderr.write("desktop_compare: the engine has no \"language\" and is not --local: a daemon it asks "
                         "keeps its own locale, so per-locale figures mean little\n")
    per_env = {}  # env locale (None = one run) → {request json: [rid, …]}
    for rid, loc, mode, c, q in reqs:
        eq = {k: v for k, v in q.items() if k not in stripped and k != "id"}
        env_loc = None if "language" in known else loc
        body = json.dumps(eq, ensure_ascii=False, sort_keys=True)
        per_env.setdefault(env_loc, {}).setdefault(body, []).append(rid)
    jobs = []  # (env locale, [(body, rids)]): per locale, and each split so --jobs run at once
    for env_loc, bodies in per_env.items():
        items = list(bodies.items())
        shards = max(1, args.jobs if len(per_env) < args.jobs else 1)
        for k in range(shards):
            jobs.append((env_loc, items[k::shards]))
    engine_results = {}

    def run_engine(job):
        env_loc, items = job
        e_env = dict(env)
        if env_loc is not None:
            e_env["LC_ALL"] = e_env["LANG"] = LOCALES[env_loc][0]
        text = "".join(body[:-1] + ', "id": %d}\n' % i for i, (body, _) in enumerate(items))
        out = run(args.engine, text, e_env, True, "engine (%s)" % (env_loc or "all locales"))
        by_id = {r.get("id"): r for r in out if isinstance(r, dict)}
        return [(rids, by_id.get(i)) for i, (_, rids) in enumerate(items)]

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for answers in pool.map(run_engine, jobs):
            for rids, r in answers:
                for rid in rids:
                    engine_results[rid] = r
    t_engine = time.time() - t0
    if pango_thread is not None:
        pango_thread.join()
    t_run = time.time() - t0
    t_pango = t_pango_box[0] if t_pango_box else 0.0

    # Score.
    stats = {}  # (dimension, key, mode) → [ok, n]
    failures = []

    def count(dim, key, mode, ok):
        s = stats.setdefault((dim, key, mode), [0, 0])
        s[0] += ok
        s[1] += 1

    verdicts = {}
    for rid, loc, mode, c, q in reqs:
        verdicts[rid] = judge(pango_results.get(rid), engine_results.get(rid))
    for rid, loc, mode, c, q in reqs:
        p = pango_results.get(rid)
        e = engine_results.get(rid)
        ok, what = verdicts[rid]
        for dim, key in (("locale", loc), ("font", family_of(c.get("font"))), ("group", group_of(c["id"])),
                         ("all", "all")):
            count(dim, key, mode, ok)
        if not ok:
            in_gtk4 = verdicts.get("%s/gtk4/%s" % (loc, c["id"]), (None,))[0]
            in_en_us = verdicts.get("en-us/%s/%s" % (mode, c["id"]), (None,))[0]
            cause = guess_cause(c, loc, mode, stripped, what, in_gtk4, in_en_us)
            failures.append({"id": c["id"], "locale": loc, "mode": mode, "cause": cause, "what": what,
                             "case": {k: v for k, v in c.items() if k != "id"}, "pango": p, "engine": e})

    pct = lambda s: 100.0 * s[0] / s[1] if s[1] else 100.0
    missed = [(loc, m) for loc in locales for m in modes
              if pct(stats.get(("locale", loc, m), [0, 0])) < args.target]
    # Each class's minimal case must be ok in every locale and mode, not 99.5 % of them.
    min_failed = sorted({f["id"] for f in failures if group_of(f["id"]) == "min"})

    L = []
    L.append("# fitd vs Pango %s on the desktop font set\n" % pango_version())
    L.append("corpus `%s`: %d cases; locales %s; modes %s; %s; fonts `%s`; LANGUAGE %s; engine `%s`.\n" % (
        os.path.relpath(args.corpus, ROOT), len(cases), ", ".join(locales), ", ".join(modes),
        "every case in every locale" if args.sample <= 0 else
        "every case in %s, a stratified sample of ~%d in the others" % (", ".join(sorted(full & set(locales))), args.sample),
        args.fonts_conf, args.preferred_languages if args.preferred_languages is not None else "unset", args.engine))
    if stripped:
        L.append("**The engine does not know the field%s %s yet**: left out of its requests%s.\n" % (
            "s" if len(stripped) > 1 else "", ", ".join("`%s`" % f for f in stripped),
            "; locales via LC_ALL/LANG instead of `language`" if "language" in stripped else ""))
    L.append("ok = width within max(0.5 px, 0.5 %%), height within 1 px, same line count and ellipsized "
             "flag (a case Pango rejects: the engine rejects it too). Target %.2f %% per locale × mode.\n" % args.target)
    total = [sum(stats.get(("all", "all", m), [0, 0])[i] for m in modes) for i in (0, 1)]
    L.append("**%s** — %.2f %% ok overall (%d/%d measurements); %.0f s (engine done after %.0f s, Pango %s).\n" % (
        "PASS" if not missed and not min_failed else "FAIL (%s)" % "; ".join(
            ([("%d locale × mode below target" % len(missed))] if missed else []) +
            ([("minimal case%s %s not ok everywhere" % ("s" if len(min_failed) > 1 else "", ", ".join(min_failed)))]
             if min_failed else [])), pct(total), total[0], total[1],
        t_run, t_engine, "from cache" if cached else "after %.0f s" % t_pango))

    def table(dim, title, keys):
        L.append("## %s\n" % title)
        L.append("| %s | %s |" % (dim, " | ".join("%s ok" % m for m in modes)))
        L.append("|---|%s" % ("---|" * len(modes)))
        for k in keys:
            cells = []
            for m in modes:
                s = stats.get((dim, k, m), [0, 0])
                flag = " ✗" if dim == "locale" and pct(s) < args.target else ""
                cells.append("%.2f %% (%d/%d)%s" % (pct(s), s[0], s[1], flag))
            L.append("| %s | %s |" % (k, " | ".join(cells)))
        L.append("")

    table("locale", "Per locale", locales)
    fonts = sorted({k for (d, k, _m) in stats if d == "font"},
                   key=lambda k: pct(stats.get(("font", k, modes[0]), [0, 0])))
    table("font", "Per font (family asked for, all locales)", fonts)
    table("group", "Per case group (all locales)", sorted({k for (d, k, _m) in stats if d == "group"}))

    # The minimal cases, one row each (the class is the comment in desktop_corpus.MINIMAL).
    min_cases = [c for c in cases if group_of(c["id"]) == "min"]
    if min_cases:
        L.append("## The minimal cases of each class (ok in how many locales)\n")
        L.append("| id | font | options | text | %s | failing in |" % " | ".join(modes))
        L.append("|---|---|---|---|%s---|" % ("---|" * len(modes)))
        for c in min_cases:
            cells, bad_in = [], []
            for m in modes:
                oks = [verdicts.get("%s/%s/%s" % (loc, m, c["id"]), (None,))[0] for loc in locales]
                cells.append("%d/%d" % (sum(1 for o in oks if o), sum(1 for o in oks if o is not None)))
                bad_in += ["%s %s" % (loc, m) for loc, o in zip(locales, oks) if o is False]
            opts = {k: v for k, v in c.items() if k not in ("id", "text", "font")}
            L.append("| %s | %s | %s | %s | %s | %s |" % (
                c["id"], c.get("font"), json.dumps(opts) if opts else "", shown(c.get("text", "")),
                " | ".join(cells), ", ".join(bad_in[:8]) + (" …" if len(bad_in) > 8 else "")))
        L.append("")

    by_cause = {}
    for f_ in failures:
        by_cause.setdefault(f_["cause"], []).append(f_)
    L.append("## Failing cases by best-guess cause\n")
    L.append("| cause | failures | gtk4 | gtk3 | locales |")
    L.append("|---|---|---|---|---|")
    for cause, fs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
        locs = {}
        for f_ in fs:
            locs[f_["locale"]] = locs.get(f_["locale"], 0) + 1
        L.append("| %s | %d | %d | %d | %s |" % (cause, len(fs), sum(f_["mode"] == "gtk4" for f_ in fs),
                                               sum(f_["mode"] == "gtk3" for f_ in fs),
                                               ", ".join("%s %d" % kv for kv in sorted(locs.items(), key=lambda kv: -kv[1])[:6])))
    L.append("")

    def fmt(r):
        if not r:
            return "—"
        if "error" in r:
            return "error: " + str(r["error"])[:70].replace("|", "\\|")
        return "%.2f×%.2f/%s%s" % (r["width"], r["height"], r.get("lines"), " …" if r.get("ellipsized") else "")

    for cause, fs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
        L.append("### %s (%d)\n" % (cause, len(fs)))
        L.append("| id | locale | mode | font | options | text | Pango w×h/lines | fitd w×h/lines | differs |")
        L.append("|---|---|---|---|---|---|---|---|---|")
        seen = set()
        listed = 0
        for f_ in sorted(fs, key=lambda f_: (f_["mode"] != "gtk4", f_["id"], f_["locale"])):
            if f_["id"] in seen:  # one line per case: the same case usually fails in many locales
                continue
            seen.add(f_["id"])
            c = f_["case"]
            opts = {k: v for k, v in c.items() if k not in ("text", "font")}
            L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                f_["id"], f_["locale"], f_["mode"], c.get("font"),
                json.dumps(opts, ensure_ascii=False).replace("|", "\\|") if opts else "",
                shown(c.get("text", "")),
                fmt(f_["pango"]), fmt(f_["engine"]), f_["what"]))
            listed += 1
            if listed >= args.examples:
                break
        L.append("")
    report = "\n".join(L) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(report)
        head = report.split("## Failing cases")[0]
        print(head)
        print("full report: %s" % args.report)
    else:
        print(report)
    if args.failures:
        with open(args.failures, "w", encoding="utf-8") as f:
            for f_ in failures:
                f.write(json.dumps(f_, ensure_ascii=False) + "\n")
    return 1 if missed or min_failed else 0


if __name__ == "__main__":
    sys.exit(main())
