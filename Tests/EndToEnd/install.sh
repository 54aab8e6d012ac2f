#!/usr/bin/env bash
# make install / make uninstall into temporary prefixes: the files land where the session
# bus and systemd look, with real paths rendered in; DESTDIR stages without changing those
# paths; the installed activation file really starts the installed fitd; uninstall removes
# exactly what install put there. BUILT= installs the binaries this test run built.
source "$(dirname "$0")/lib.bash"
[ -x "$FITD" ] && [ -x "$FITCTL" ] || fail "no fitd/fitctl at $FITD, $FITCTL"
built=$(dirname "$FITD")
[ "$(dirname "$FITCTL")" = "$built" ] || fail "FITD and FITCTL must come from one build directory"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

install_into() {  # install_into LOG MAKE-ARGS…
  local log=$1; shift
  make --no-print-directory install BUILT="$built" "$@" >"$log" 2>&1 || fail "make install $*: $(cat "$log")"
}
# files PREFIX: every file under PREFIX, relative, sorted
files() { (cd "$1" && find . -type f -o -type l | sed 's|^\./||' | sort); }

# 1. A system-like prefix: units under lib/systemd/user.
prefix=$work/usr
install_into "$work/install.log" PREFIX="$prefix"
expected="bin/fitctl
bin/fitd
lib/systemd/user/fitd.service
share/dbus-1/interfaces/org.fitd.Fit1.xml
share/dbus-1/services/org.fitd.Fit1.service
share/doc/fitd/README.md"
assert_eq "$(files "$prefix")" "$expected" "files installed under $prefix"
assert_eq "$(stat -c %a "$prefix/bin/fitd")" 755 "mode of bin/fitd"
assert_eq "$(stat -c %a "$prefix/share/dbus-1/services/org.fitd.Fit1.service")" 644 "mode of the activation file"
cmp -s "$prefix/bin/fitd" "$FITD" || fail "bin/fitd is not the built fitd"
cmp -s "$prefix/share/dbus-1/interfaces/org.fitd.Fit1.xml" protocol/org.fitd.Fit1.xml || fail "the interface XML differs"
grep -rqE '@[a-z]+@' "$prefix/share/dbus-1/services" "$prefix/lib/systemd/user" && fail "a placeholder is left unrendered"
assert_eq "$(sed -n 's/^Exec=//p' "$prefix/share/dbus-1/services/org.fitd.Fit1.service")" "$prefix/bin/fitd" "Exec="
assert_eq "$(sed -n 's/^ExecStart=//p' "$prefix/lib/systemd/user/fitd.service")" "$prefix/bin/fitd" "ExecStart="
assert_eq "$(sed -n 's/^Documentation=//p' "$prefix/lib/systemd/user/fitd.service")" \
  "file://$prefix/share/doc/fitd/README.md" "Documentation="
ok "PREFIX=$prefix: $(echo "$expected" | wc -l) files, paths rendered"

mkdir -m 0700 "$work/runtime"
(cd "$prefix/lib/systemd/user" && XDG_RUNTIME_DIR=$work/runtime systemd-analyze verify --user fitd.service) \
  >"$work/verify" 2>&1 || fail "systemd-analyze verify on the installed unit: $(cat "$work/verify")"
[ -s "$work/verify" ] && fail "systemd-analyze verify complained: $(cat "$work/verify")"
ok "the installed fitd.service passes systemd-analyze verify"

# The installed activation file, as the session bus would read it from share/dbus-1/services.
out=$(XDG_CONFIG_HOME=$work/config "$ROOT/scripts/private-bus" --servicedir "$prefix/share/dbus-1/services" --log "$work/bus.log" -- \
  bash -c 'busctl --user call org.fitd.Fit1 /org/fitd/Fit1 org.fitd.Fit1 Measure "ssa{sv}" "Hello, world" "DejaVu Sans 12" 0 &&
    pid=$(busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetConnectionUnixProcessID s org.fitd.Fit1 | cut -d" " -f2) &&
    readlink "/proc/$pid/exe"') || fail "activation through the installed file: $out $(cat "$work/bus.log")"
[[ $out == *"94.7812"* ]] || fail "the installed daemon measured: $out"
[ "$(echo "$out" | tail -1)" = "$prefix/bin/fitd" ] || fail "the activated binary is not the installed one: $out"
ok "the installed activation file starts $prefix/bin/fitd, which answers"

# Uninstall removes exactly those files, and nothing else in the prefix.
touch "$prefix/bin/someone-else" "$prefix/share/doc/fitd.keep"
make --no-print-directory uninstall PREFIX="$prefix" >"$work/uninstall.log" 2>&1 || fail "make uninstall: $(cat "$work/uninstall.log")"
assert_eq "$(files "$prefix")" "bin/someone-else
share/doc/fitd.keep" "files left after uninstall"
[ -d "$prefix/share/doc/fitd" ] && fail "uninstall left the empty share/doc/fitd"
ok "uninstall removed exactly the installed files (and the empty doc directory)"

# 2. A prefix under $HOME: units where the user manager reads them (~/.local/share/systemd/user).
home=$work/home
HOME=$home install_into "$work/install-home.log" PREFIX="$home/.local"
[ -f "$home/.local/share/systemd/user/fitd.service" ] || fail "PREFIX under HOME: no share/systemd/user/fitd.service: $(files "$home")"
[ -e "$home/.local/lib" ] && fail "PREFIX under HOME: something went to lib/: $(files "$home")"
HOME=$home make --no-print-directory uninstall PREFIX="$home/.local" >/dev/null 2>&1 || fail "make uninstall (home)"
assert_eq "$(files "$home")" "" "files left in the home prefix after uninstall"
ok "PREFIX=~/.local: the unit goes to ~/.local/share/systemd/user; uninstall leaves nothing"

# 3. DESTDIR stages the tree; the rendered paths are the final ones.
install_into "$work/install-dest.log" DESTDIR="$work/stage" PREFIX=/usr/local
[ -x "$work/stage/usr/local/bin/fitd" ] || fail "DESTDIR: no stage/usr/local/bin/fitd"
assert_eq "$(sed -n 's/^Exec=//p' "$work/stage/usr/local/share/dbus-1/services/org.fitd.Fit1.service")" /usr/local/bin/fitd "Exec= with DESTDIR"
assert_eq "$(sed -n 's/^ExecStart=//p' "$work/stage/usr/local/lib/systemd/user/fitd.service")" /usr/local/bin/fitd "ExecStart= with DESTDIR"
make --no-print-directory uninstall DESTDIR="$work/stage" PREFIX=/usr/local >/dev/null 2>&1 || fail "make uninstall (DESTDIR)"
assert_eq "$(files "$work/stage")" "" "files left in DESTDIR after uninstall"
ok "DESTDIR=…/stage PREFIX=/usr/local: staged, paths say /usr/local; uninstall with the same DESTDIR empties it"

make --no-print-directory install PREFIX=relative/path BUILT="$built" >/dev/null 2>&1 && fail "make install accepted a relative PREFIX"
ok "a relative PREFIX is refused"
