#!/usr/bin/env bash
# Terminal cells (docs/users-terminal-app.md), through the D-Bus-activated daemon: the
# escapes, ambiguous and terminal options from fitctl (flags, batch fields, the client's
# TERM_PROGRAM/TERM), from raw D-Bus (a{sv}, named errors, each option its own cache entry)
# and from the Python client; a mebibyte of open CSI stays fast.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# width TEXT [fitctl flags…]: the width fitctl measure --cells answers, with a neutral TERM
# so the profile is the daemon's default unless a test sets one (fitctl asks no terminal here:
# on_private_bus runs this script under timeout, in a process group of its own, never the
# foreground one).
width() {
  local text=$1; shift
  env -u TERM_PROGRAM TERM=dumb "$FITCTL" measure --cells --json "$@" -- "$text" | json_get 'repr(d["width"])'
}

assert_eq "$(width $'\e[1mbold\e[0m' --escapes ansi)" 4 "SGR with --escapes ansi"
assert_eq "$(width $'\e[1mbold\e[0m')" 10 "SGR without --escapes (today's count: the sequences are text)"
assert_eq "$(width $'\e]8;;https://example.com\e\\link\e]8;;\e\\' --escapes ansi)" 4 "OSC 8 hyperlink"
assert_eq "$(width $'\e[38;2;255;0;0mred\e[0m' --escapes ansi)" 3 "SGR truecolour"
ok "--escapes ansi: \\e[1mbold\\e[0m is 4 cells (10 without); OSC 8 link 4; SGR truecolour 3"

assert_eq "$(width '±…αβ')" 4 "ambiguous narrow"
assert_eq "$(width '±…αβ' --ambiguous wide)" 8 "ambiguous wide"
ok "--ambiguous wide: ±…αβ is 8 cells (4 narrow)"

assert_eq "$(width '👩‍💻👍🏽❤️🇩🇪' --terminal grapheme)" 8 "grapheme profile"
assert_eq "$(width '👩‍💻👍🏽❤️🇩🇪' --terminal wcwidth)" 11 "wcwidth profile"
assert_eq "$(width '👩‍💻👍🏽❤️🇩🇪')" 8 "default profile (daemon: grapheme)"
ok "--terminal: 👩‍💻👍🏽❤️🇩🇪 is 8 cells by grapheme clusters, 11 by wcwidth"

# The client's environment picks the profile; --terminal wins over it.
envw() { env -u TERM_PROGRAM -u TERM_PROGRAM_VERSION "$@" "$FITCTL" measure --cells --json -- '👩‍💻' | json_get 'repr(d["width"])'; }
assert_eq "$(envw TERM=xterm-kitty)" 2 "TERM=xterm-kitty"
assert_eq "$(envw TERM=alacritty)" 4 "TERM=alacritty"
assert_eq "$(envw TERM=xterm-kitty TERM_PROGRAM=tmux TERM_PROGRAM_VERSION=3.3a)" 4 "tmux 3.3a inside kitty"
assert_eq "$(envw TERM=tmux-256color TERM_PROGRAM=tmux TERM_PROGRAM_VERSION=3.5a)" 2 "tmux 3.5a"
assert_eq "$(envw TERM=foot)" 2 "TERM=foot"
assert_eq "$(envw TERM=xterm-256color)" 2 "an unknown terminal: the daemon's default"
assert_eq "$(env TERM=alacritty "$FITCTL" measure --cells --json --terminal grapheme -- '👩‍💻' | json_get 'repr(d["width"])')" 2 "--terminal over TERM"
ok "TERM/TERM_PROGRAM: kitty, foot and tmux ≥ 3.4 2, Alacritty and tmux 3.3a 4 for 👩‍💻; unknown terminals get the daemon's default"

printf '%s\n' \
  '{"text":"\u001b[1mbold\u001b[0m","unit":"cells","escapes":"ansi"}' \
  '{"text":"±","unit":"cells","ambiguous":"wide"}' \
  '{"text":"👍🏽","unit":"cells","terminal":"wcwidth"}' \
  '{"text":"x","unit":"cells","terminal":"vte"}' \
  | env -u TERM_PROGRAM TERM=dumb "$FITCTL" measure --batch >"$work/batch" && fail "batch with a bad line exited 0" \
  || assert_eq "$?" 2 "batch exit status with a bad line"
assert_eq "$(sed -n 1,3p "$work/batch" | "$PY" -c 'import json,sys; print([json.loads(l)["width"] for l in sys.stdin])')" "[4, 2, 4]" "batch fields"
sed -n 4p "$work/batch" | grep -q '"error":"invalid terminal' || fail "batch terminal vte: $(sed -n 4p "$work/batch")"
ok "batch: escapes, ambiguous and terminal fields; a bad word is that line's error"

"$PY" - <<'PY' || fail "D-Bus cells options"
import sys, time
import dbus
bus = dbus.SessionBus()
fit = dbus.Interface(bus.get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
S = dbus.String
text = "\x1b[1m±👩‍💻\x1b[0m"
def width(**options):
    return float(fit.Measure(text, "", dbus.Dictionary({"unit": S("cells"), **{k: S(v) for k, v in options.items()}}, signature="sv"))[0])
# Twice each, in an order where a cache that ignored an option would answer wrongly.
for _ in range(2):
    got = [width(), width(escapes="ansi"), width(escapes="ansi", ambiguous="wide"),
           width(escapes="ansi", ambiguous="wide", terminal="wcwidth"), width(ambiguous="wide", terminal="wcwidth")]
    assert got == [9.0, 3.0, 4.0, 6.0, 12.0], got
for key, word in [("escapes", "ANSI"), ("ambiguous", "Wide"), ("terminal", "kitty")]:
    try:
        fit.Measure("x", "", {"unit": S("cells"), key: S(word)})
        raise SystemExit(f"{key} {word} accepted")
    except dbus.DBusException as e:
        assert e.get_dbus_name() == "org.fitd.Fit1.Error.InvalidArgument", e.get_dbus_name()
        assert key in e.get_dbus_message(), e.get_dbus_message()
try:
    fit.Measure("x", "", {"terminal": dbus.Boolean(True)})
    raise SystemExit("a boolean terminal was accepted")
except dbus.DBusException as e:
    assert "terminal" in e.get_dbus_message(), e.get_dbus_message()
# MeasureBatch: per-entry options.
batch = fit.MeasureBatch([(S("👩‍💻"), S(""), {"unit": S("cells"), "terminal": S("wcwidth")}),
                          (S("👩‍💻"), S(""), {"unit": S("cells")})])
assert [float(e[3][0]) for e in batch] == [4.0, 2.0], batch
# A mebibyte of ESC [ and digits (one CSI that never ends): one linear pass.
big = "\x1b[" + "1" * ((1 << 20) - 2)
t = time.perf_counter()
m = fit.Measure(big, "", {"unit": S("cells"), "escapes": S("ansi")}, timeout=30)
elapsed = time.perf_counter() - t
assert float(m[0]) == 0.0, m[0]
assert elapsed < 5, elapsed
print(f"cells_options: 1 MiB open CSI measured in {elapsed * 1000:.0f} ms")
PY
# The Python package passes the options through.
"$FITD_PY" - <<'PY' || fail "the Python package with cells options"
import fitd
client = fitd.Client()
assert client.measure("\x1b[1mbold\x1b[0m", unit="cells", escapes="ansi").width == 4.0
assert client.measure("👍🏽", unit="cells", terminal="wcwidth").width == 4.0
assert client.measure("±", unit="cells", ambiguous="wide").width == 2.0
PY
ok "D-Bus: each option keys its own cached reply; bad words are InvalidArgument naming the option; MeasureBatch per entry; 1 MiB open CSI linear; the Python client passes them"
