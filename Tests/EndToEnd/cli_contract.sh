#!/usr/bin/env bash
# fitctl's command-line contract (fitctl --help, README "Exit status"): every command's help
# runs and has no line broken mid-sentence; --version on both binaries says VERSION's version
# and the interface; exit codes 0 success, 1 failure, 2 a batch with failed lines, 64 usage,
# 69 ping/status with no daemon (private-bus --no-service: a bus on which fitd cannot be
# activated); "did you mean"; negative values refused with their range; --json of every
# command parses; a substituted family is said on stderr and flagged "substituted".
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
[ -x "$FITCTL" ] || fail "no fitctl at $FITCTL"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# status CMD…: runs it, stdout to $work/out, stderr to $work/err; prints the exit status.
status() { local s=0; "$@" >"$work/out" 2>"$work/err" || s=$?; echo "$s"; }

# --- help: every command, exit 0, no stray line breaks. At 2000 columns ArgumentParser
# wraps nothing, so a prose line that starts in the first column with a lower-case letter or
# "(" after a non-empty line is a sentence broken by hand.
for cmd in "" measure fit font scale "scale show" "scale set" "scale reset" "scale categories" watch status ping terminal; do
  # shellcheck disable=SC2086
  s=$(COLUMNS=2000 status "$FITCTL" $cmd --help)
  assert_eq "$s" 0 "fitctl $cmd --help exit status"
  grep -q "^USAGE: fitctl $cmd" "$work/out" || fail "fitctl $cmd --help has no usage line"
  "$PY" - "$work/out" "fitctl $cmd" <<'PY' || fail "stray line break in 'fitctl $cmd --help'"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
for prev, line in zip(lines, lines[1:]):
    if prev.strip() and not prev.rstrip().endswith(":") and re.match(r"[a-z(]", line):
        sys.exit(f"{sys.argv[2]}: {prev!r} / {line!r}")
PY
done
s=$(COLUMNS=2000 status "$FITD" --help); assert_eq "$s" 0 "fitd --help"
ok "help of fitd and of every fitctl command: exit 0, no line broken mid-sentence"

# --- fitd's own command line (DaemonOptions): its page docs/fitd.8 and --help list the same
# options, the page renders without a warning, and a usage error is 64 naming the argument.
help_options=$("$FITD" --help | grep -oE -- '(^|[ ,])--?[a-z][a-z-]*' | tr -d ' ,' | sort -u)
page_options=$(grep -oE '^\.(It|Op) Fl (\\-)?[a-z][a-z-]*|^\.It Fl h , Fl \\-help' "$ROOT/docs/fitd.8" \
  | sed -e 's/^\.\(It\|Op\) Fl //' -e 's/\\-/--/g' -e 's/^\([a-z]\)/-\1/' -e 's/ , Fl /\n/' | sort -u)
assert_eq "$page_options" "$help_options" "options in docs/fitd.8 against fitd --help"
warnings=$(groff -mandoc -ww -z "$ROOT/docs/fitd.8" 2>&1)
assert_eq "$warnings" "" "groff warnings on docs/fitd.8"
for args in "--bogus" "extra" "--address" "--log-level loud" "--replace=yes"; do
  # shellcheck disable=SC2086
  assert_eq "$(status "$FITD" $args)" 64 "fitd $args exit status"
  grep -q -- "^fitd: .*${args%%[ =]*}" "$work/err" || fail "fitd $args: the error does not name it: $(cat "$work/err")"
  grep -q "^See 'fitd --help'" "$work/err" || fail "fitd $args: no pointer to --help: $(cat "$work/err")"
done
ok "fitd: docs/fitd.8 and --help list the same $(echo "$help_options" | wc -l) options; usage errors exit 64 and name the argument"

# --- help at a terminal's width: `fitctl help CMD` at 80 and 60 columns has no line wider
# than the terminal, and every example under "Examples:" is whole: the same words and comment
# as at 2000 columns (where nothing wraps), continued only after " \" on an indented line, its
# comment beside it or on "# " lines above it. (ArgumentParser alone split long examples
# mid-command and put the rest in the first column.)
# examples.py WIDE NARROW WIDTH: checks NARROW (help at WIDTH columns) against WIDE; prints
# how many examples it has.
cat >"$work/examples.py" <<'PY'
import shlex, sys, unicodedata

def cells(text):
    return sum(0 if unicodedata.category(c) in ("Mn", "Me", "Cf") or 0xFE00 <= ord(c) <= 0xFE0F
               else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

def split_comment(text):
    """A command line's text before its comment, and the comment's words: from a "#" that
    begins a word outside quotes."""
    quote = None
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] == " "):
            return text[:i], text[i + 1:].split()
    return text, []

def examples(path):
    """Each example under "Examples:" as (its words, its comment's words): a command continued
    after " \\" on 6-space lines, a comment beside it (continued on "#" lines in its column)
    or on 2-space "# " lines above it."""
    out, block, above, command = [], False, [], None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if not line.startswith(" "):
            block = line.strip() == "Examples:"
            continue
        if not block:
            continue
        indent, text = len(line) - len(line.lstrip(" ")), line.strip()
        if command is not None:  # the line after " \\"
            if indent != 6 or text.startswith("#"):
                sys.exit(f"{line!r} continues an example without its indent")
            command += " " + text
        elif text.startswith("#"):
            if indent == 2:
                above += text[1:].split()
            elif out:
                out[-1][1].extend(text[1:].split())
            else:
                sys.exit(f"a comment with no example: {line!r}")
            continue
        elif indent == 2:
            command = text
        else:
            sys.exit(f"an example line at indent {indent}: {line!r}")
        if command.endswith(" \\"):
            command = command[:-2]
            continue
        body, beside = split_comment(command)
        out.append((shlex.split(body), above + beside))
        above, command = [], None
    return out

wide_path, narrow_path, width = sys.argv[1], sys.argv[2], int(sys.argv[3])
for line in open(narrow_path, encoding="utf-8").read().split("\n"):
    if cells(line) > width:
        sys.exit(f"a line of {cells(line)} cells: {line!r}")
wide, narrow = examples(wide_path), examples(narrow_path)
if not wide:
    sys.exit("no examples at 2000 columns")
if narrow != wide:
    broken = [(a, b) for a, b in zip(wide, narrow) if a != b][:1] or [(len(wide), len(narrow))]
    sys.exit(f"examples not whole: {broken}")
print(len(wide))
PY
examples=0
for cmd in "" measure fit check font scale "scale show" "scale set" "scale reset" "scale categories" watch status ping; do
  # shellcheck disable=SC2086
  COLUMNS=2000 "$FITCTL" help $cmd >"$work/wide" 2>&1 || fail "fitctl help $cmd"
  for width in 80 60; do
    # shellcheck disable=SC2086
    COLUMNS=$width "$FITCTL" help $cmd >"$work/narrow" 2>&1 || fail "fitctl help $cmd at $width columns"
    n=$("$PY" "$work/examples.py" "$work/wide" "$work/narrow" "$width" 2>&1) || fail "fitctl help $cmd at $width columns: $n"
    examples=$((examples + n))
  done
done
ok "fitctl help of every command at 80 and 60 columns: no line wider, $examples examples whole (continued after \\ where too long)"

# --- the terminal profile fitctl takes inside tmux is the one its help names: tmux 3.4 and
# later join emoji clusters (grapheme: 👍🏽 2 cells), tmux 3.3a adds up code points (wcwidth:
# 4), and every "tmux" in measure's help says which version it means.
for v in 3.3a:4 3.4:2; do
  got=$(TERM_PROGRAM=tmux TERM_PROGRAM_VERSION=${v%%:*} "$FITCTL" measure --local --cells "👍🏽" --json \
    | "$PY" -c 'import json,sys; print(round(json.load(sys.stdin)["width"]))')
  assert_eq "$got" "${v#*:}" "cells of 👍🏽 in tmux ${v%%:*}"
done
COLUMNS=2000 "$FITCTL" measure --help >"$work/out"
grep -q 'grapheme (kitty, WezTerm, foot, Ghostty, tmux ≥ 3.4)' "$work/out" && grep -q 'wcwidth (.*tmux < 3.4)' "$work/out" \
  || fail "measure --help's --terminal does not give tmux's profile by version: $(grep -- '--terminal' "$work/out")"
bare=$(grep -oP 'tmux(?!-| ≥| <| 3\.| before| whose| of unknown)' "$work/out" || true)
assert_eq "$bare" "" "mentions of tmux in measure --help that say no version"
grep -q 'No profile is exact for tmux 3.3a' "$work/out" || fail "measure --help does not say what no profile fits"
ok "tmux: fitctl takes wcwidth for 3.3a and grapheme for 3.4, as measure --help says"
grep -q "^  69  " <("$FITCTL" --help) || fail "fitctl --help does not document exit status 69"

# --- --version: VERSION's version and the interface.
version=$(tr -d '\n' <VERSION)
assert_eq "$("$FITCTL" --version)" "fitctl $version (org.fitd.Fit1 interface 1)" "fitctl --version"
assert_eq "$("$FITD" --version)" "fitd $version (org.fitd.Fit1 interface 1)" "fitd --version"
ok "--version: fitctl and fitd $version, interface 1"

# --- usage errors: 64, with a suggestion where one is near.
assert_eq "$(status "$FITCTL" mesure x)" 64 "fitctl mesure"
grep -q "Did you mean 'measure'" "$work/err" || fail "fitctl mesure: no suggestion: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" scale sett 1.25)" 64 "fitctl scale sett"
grep -q "Did you mean 'set'" "$work/err" || fail "fitctl scale sett: no suggestion: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure x --frnt Sans)" 64 "unknown option"
grep -q "Did you mean '--font'" "$work/err" || fail "--frnt: no suggestion: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure x --wrap wrod)" 64 "bad option word"
grep -q 'did you mean "word"' "$work/err" || fail "--wrap wrod: no suggestion: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure x --max-width -5)" 64 "--max-width -5"
grep -q "Missing value" "$work/err" && fail "--max-width -5 says Missing value: $(cat "$work/err")"
grep -q "give a width from 0 to" "$work/err" || fail "--max-width -5 does not say the range: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure x --max-lines -1)" 64 "--max-lines -1"
assert_eq "$(status "$FITCTL" fit protocol/examples/first-fit-card.json --width -5)" 64 "fit --width -5"
grep -q "Missing value" "$work/err" && fail "fit --width -5 says Missing value: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure)" 64 "measure without text"
assert_eq "$(status "$FITCTL" scale set 9)" 64 "scale set 9"
assert_eq "$(status "$FITCTL" scale set -1)" 64 "scale set -1"
grep -q "must be from 0.25 to 4.0" "$work/err" || fail "scale set -1 does not say the range: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" terminal --timeout-ms 0)" 64 "terminal --timeout-ms 0"
grep -q "1…10000" "$work/err" || fail "terminal --timeout-ms 0 does not say the range: $(cat "$work/err")"
ok "usage errors exit 64; did you mean for commands, options and option words; -5 refused with its range"

# --- negative letter spacing is a value (it tightens), not an option.
assert_eq "$(status "$FITCTL" measure "Hello" --font "DejaVu Sans 12" --letter-spacing -1 --json)" 0 "--letter-spacing -1"
json_get 'd["width"]' <"$work/out" >/dev/null || fail "--letter-spacing -1: no width"

# --- --json of every command that has it parses, and exits 0 through the daemon.
for cmd in "measure Hello --font DejaVu_Sans_12" "font DejaVu_Sans_12" "fit protocol/examples/first-fit-card.json --width 320" \
  "scale" "scale show" "scale categories" "status" "ping"; do
  # shellcheck disable=SC2086
  set -- $cmd; args=(); for a in "$@"; do args+=("${a//_/ }"); done
  assert_eq "$(status "$FITCTL" "${args[@]}" --json)" 0 "fitctl $cmd --json"
  "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/out" || fail "fitctl $cmd --json is not JSON: $(head -c 300 "$work/out")"
  [ -s "$work/err" ] && fail "fitctl $cmd --json wrote to stderr: $(cat "$work/err")"
done
assert_eq "$(json_get 'd["mode"]' <<<"$("$FITCTL" status --json)")" daemon "status --json mode"
ok "--json of measure, font, fit, scale, status, ping: JSON, exit 0, nothing on stderr"

# --- a substituted family: stderr, and "substituted" in --json and --batch.
assert_eq "$(status "$FITCTL" measure Hello --font "No Such Family 12" --json)" 0 "measure with a missing family"
assert_eq "$(json_get 'd["substituted"]' <"$work/out")" True "measure --json substituted"
grep -q 'warning: no font family of "No Such Family 12" is installed; fontconfig substituted' "$work/err" \
  || fail "no substitution warning: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure Hello --font "DejaVu Sans 12" --json)" 0 "measure DejaVu Sans"
assert_eq "$(json_get 'd["substituted"]' <"$work/out")" False "measure --json, an installed family"
[ -s "$work/err" ] && fail "an installed family warned: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" measure Hello --font "sans-serif 12" --json)" 0 "measure sans-serif"
assert_eq "$(json_get 'd["substituted"]' <"$work/out")" False "a generic family is not a substitution"
assert_eq "$(status "$FITCTL" font "No Such Family 12" --json)" 0 "font with a missing family"
assert_eq "$(json_get 'd["substituted"]' <"$work/out")" True "font --json substituted"
grep -q "fontconfig substituted" "$work/err" || fail "fitctl font: no substitution warning"
ok "a missing family: warning on stderr, \"substituted\": true (measure, font); installed and generic ones: false"

# --- batch: 0 when every line is measured, 2 when some failed (the others still measured).
assert_eq "$(status "$FITCTL" measure --batch <protocol/examples/requests.jsonl)" 0 "batch of protocol/examples/requests.jsonl"
assert_eq "$(wc -l <"$work/out")" "$(wc -l <protocol/examples/requests.jsonl)" "one result a request"
grep -q '"error"' "$work/out" && fail "requests.jsonl has failing lines: $(cat "$work/out")"
printf '%s\n' '{"id":1,"text":"OK","font":"DejaVu Sans 10"}' '{"id":2,"text":1}' '{"id":3,"text":"x","font":"Nope Nope 10"}' \
  >"$work/in"
assert_eq "$(status "$FITCTL" measure --batch <"$work/in")" 2 "batch with a bad line"
assert_eq "$("$PY" -c 'import json,sys; print([("error" in d, d.get("substituted")) for d in map(json.loads, open(sys.argv[1]))])' "$work/out")" \
  "[(False, False), (True, None), (False, True)]" "batch results: error and substituted per line"
ok "measure --batch: exit 0 on protocol/examples/requests.jsonl, 2 with a bad line; substituted per line"

# --- batch fields: the first unknown name is the error; a repeated name is refused; names are
# bytes (U+212A KELVIN SIGN, canonically "K", names no field); a field of the wrong type is named.
printf '%s\n' '{"id":1,"text":"a","colour":1,"zzz":2}' '{"id":2,"text":"WWW","text":"i"}' \
  '{"id":3,"text":"x","\u212Aerning":1}' '{"id":4,"text":"x","max_width":"9"}' '{"id":5,"text":"x","wrap":"word"}' >"$work/in"
"$FITCTL" measure --batch --local <"$work/in" >"$work/out" 2>/dev/null || true
"$PY" - "$work/out" <<'PY' || fail "batch fields: $(cat "$work/out")"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert "colour" in r[0]["error"] and "zzz" not in r[0]["error"], r[0]
assert "given twice" in r[1]["error"], r[1]
assert "\u212aerning" in r[2]["error"], r[2]
assert "max_width" in r[3]["error"] and "not a number" in r[3]["error"], r[3]
assert "error" not in r[4] and r[4]["id"] == 5, r[4]
PY
ok "measure --batch: the first unknown field is named, a repeated one refused, names compared as bytes"

# --- failure: 1.
assert_eq "$(status "$FITCTL" fit "$work/no-such.json")" 1 "fit of a missing file"
assert_eq "$(status "$FITCTL" measure x --font "Sans 0")" 1 "a refused request"
ok "failures exit 1"

# --- no daemon: ping and status exit 69 (health checks); --local still answers; measure falls back.
"$ROOT/scripts/private-bus" --no-service --log /dev/null -- bash -c '
  s=0; "$FITCTL" ping >/dev/null 2>"$0/ping.err" || s=$?; echo "ping $s"
  s=0; "$FITCTL" status --json >/dev/null 2>"$0/status.err" || s=$?; echo "status $s"
  s=0; "$FITCTL" ping --local >/dev/null 2>&1 || s=$?; echo "ping-local $s"
  s=0; "$FITCTL" status --local >/dev/null 2>&1 || s=$?; echo "status-local $s"
  s=0; "$FITCTL" measure x >/dev/null 2>&1 || s=$?; echo "measure $s"' "$work" >"$work/nodaemon"
assert_eq "$(tr '\n' ' ' <"$work/nodaemon")" "ping 69 status 69 ping-local 0 status-local 0 measure 0 " "exit codes without a daemon"
grep -q "^fitctl ping: no daemon" "$work/ping.err" || fail "ping without daemon: $(cat "$work/ping.err")"
s=0; env -u DBUS_SESSION_BUS_ADDRESS DISPLAY= XDG_RUNTIME_DIR="$work" "$FITCTL" ping >/dev/null 2>&1 || s=$?
assert_eq "$s" 69 "ping with no bus at all"
ok "no daemon: ping and status exit 69, with --local 0; measure falls back (0)"

# --- a mistyped text style: the substitution warning names the style it is near.
"$FITCTL" measure "Hello" --font "headlin" >/dev/null 2>"$work/typo.err"
grep -q 'did you mean the text style "headline"?' "$work/typo.err" || fail "--font headlin: $(cat "$work/typo.err")"
"$FITCTL" measure "Hello" --font "DejaVu Sans 12" >/dev/null 2>"$work/right.err"
[ ! -s "$work/right.err" ] || fail "--font 'DejaVu Sans 12' said something: $(cat "$work/right.err")"
ok "--font headlin: did you mean the text style \"headline\"?"
