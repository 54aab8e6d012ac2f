#!/usr/bin/env bash
# make install / make uninstall into temporary prefixes: the files land where the session
# bus, systemd, man and the shells look, with real paths rendered in; the binaries are
# stripped; both man pages render; the bash completion sources; DESTDIR stages without
# changing those paths; the installed activation file really starts the installed fitd;
# uninstall removes exactly what install put there (its manifest) and leaves an empty prefix.
# BUILT= installs the binaries this test run built. (`make test-dist` checks the tarball.)
source "$(dirname "$0")/lib.bash"
[ -x "$FITD" ] && [ -x "$FITCTL" ] || fail "no fitd/fitctl at $FITD, $FITCTL"
built=$(dirname "$FITD")
[ "$(dirname "$FITCTL")" = "$built" ] || fail "FITD and FITCTL must come from one build directory"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

install_into() {  # install_into LOG MAKE-ARGS…
  local log=$1; shift
  make --no-print-directory install BUILT="$built" "$@" >"$log" 2>&1 || fail "make install $*: $(cat "$log")"
}
# The first install generates the man pages (make man: the generate-manual plugin for fitctl,
# docs/fitd.8 for fitd); the others install those (MANSRC=), so swift runs once, and never with
# HOME in the prefix.
mandir=$ROOT/.build/man
# files PREFIX: every file under PREFIX, relative, sorted
files() { (cd "$1" && find . -type f -o -type l | sed 's|^\./||' | sort); }

# 1. A system-like prefix: units under lib/systemd/user.
prefix=$work/usr
install_into "$work/install.log" PREFIX="$prefix"
expected="bin/fitctl
bin/fitd
include/fitd-client/fit-client-generated.h
include/fitd-client/fit-check.h
include/fitd-client/fit-client.h
include/fitd-client/fit-results.h
include/fitd-gtk/fit-gtk.h
include/fitd-gtk/fit-threshold-box.h
include/fitd-gtk/fit-uniform-group.h
include/fitd-gtk/fit-view-that-fits.h
lib/girepository-1.0/Fitd-1.0.typelib
lib/girepository-1.0/FitdGtk-1.0.typelib
lib/libfitd-client.so
lib/libfitd-client.so.0
lib/libfitd-client.so.0.$(cut -d. -f2- VERSION)
lib/libfitd-gtk.so
lib/libfitd-gtk.so.0
lib/libfitd-gtk.so.0.$(cut -d. -f2- VERSION)
lib/pkgconfig/fitd-client.pc
lib/pkgconfig/fitd-gtk.pc
lib/systemd/user/fitd.service
share/bash-completion/completions/fitctl
share/dbus-1/interfaces/org.fitd.Fit1.xml
share/dbus-1/services/org.fitd.Fit1.service
share/doc/fitd/CHANGELOG.md
share/doc/fitd/LICENSE
share/doc/fitd/README.md
$(cd docs && ls *.md | sed 's|^|share/doc/fitd/docs/|')
$(cd docs && ls images/*.svg | sed 's|^|share/doc/fitd/docs/|')
share/doc/fitd/protocol.md
share/fish/vendor_completions.d/fitctl.fish
share/fitd/examples/$(cd protocol/examples && ls *.json | head -1)
share/fitd/install-manifest
share/fitd/layout-document.schema.json
share/gir-1.0/Fitd-1.0.gir
share/gir-1.0/FitdGtk-1.0.gir
share/man/man1/fitctl.1
share/man/man8/fitd.8
share/vala/vapi/fitd-client.deps
share/vala/vapi/fitd-client.vapi
share/vala/vapi/fitd-gtk.deps
share/vala/vapi/fitd-gtk.vapi
share/zsh/site-functions/_fitctl"
# Every example, then the list above: all of them and nothing else.
actual=$(files "$prefix")
for f in protocol/examples/*.json protocol/examples/translations/*.json; do
  [ -f "$prefix/share/fitd/${f#protocol/}" ] || fail "example $f not installed"
done
assert_eq "$(echo "$actual" | grep -v '^share/fitd/examples/' | sort)" \
  "$(echo "$expected" | grep -v '^share/fitd/examples/' | sort)" "files installed under $prefix"
assert_eq "$(echo "$actual" | grep -c '^share/fitd/examples/')" "$(ls protocol/examples/*.json protocol/examples/translations/*.json | wc -l)" "examples installed"
# The manifest lists exactly the files that are there.
assert_eq "$(sed -n "s|^file $prefix/||p" "$prefix/share/fitd/install-manifest" | sort)" "$actual" "the manifest's files"
assert_eq "$(stat -c %a "$prefix/bin/fitd")" 755 "mode of bin/fitd"
assert_eq "$(stat -c %a "$prefix/share/dbus-1/services/org.fitd.Fit1.service")" 644 "mode of the activation file"
cmp -s "$prefix/share/dbus-1/interfaces/org.fitd.Fit1.xml" protocol/org.fitd.Fit1.xml || fail "the interface XML differs"
cmp -s "$prefix/share/fitd/layout-document.schema.json" protocol/layout-document.schema.json || fail "the schema differs"
grep -rqE '@[a-z]+@' "$prefix/share/dbus-1/services" "$prefix/lib/systemd/user" && fail "a placeholder is left unrendered"
# What the templates say about themselves (their #@ lines: what is replaced, and by whom)
# describes systemd/*.in, not the installed files; rendered, it read "/usr/local/bin is
# replaced by `make install`". Every other comment line is the installed file's own.
for t in systemd/fitd.service.in:lib/systemd/user/fitd.service \
         systemd/org.fitd.Fit1.service.in:share/dbus-1/services/org.fitd.Fit1.service; do
  template=${t%%:*} installed=$prefix/${t#*:}
  grep -q '^#@' "$template" || fail "$template has no #@ note: this check would pass on anything"
  left=$(grep -nE '^#@|make install|replaced by' "$installed" || true)
  [ -z "$left" ] || fail "${t#*:} keeps its template's notes: $left"
  assert_eq "$(grep -c '^#' "$installed")" "$(grep '^#' "$template" | grep -vc '^#@')" "comment lines of ${t#*:}"
done
assert_eq "$(sed -n 's/^Exec=//p' "$prefix/share/dbus-1/services/org.fitd.Fit1.service")" "$prefix/bin/fitd" "Exec="
assert_eq "$(sed -n 's/^ExecStart=//p' "$prefix/lib/systemd/user/fitd.service")" "$prefix/bin/fitd" "ExecStart="
assert_eq "$(sed -n 's/^Documentation=//p' "$prefix/lib/systemd/user/fitd.service")" \
  "file://$prefix/share/doc/fitd/README.md" "Documentation="
# libfitd-client: the .pc file names this prefix, the links lead to the library, whose SONAME
# is the .so.0 link's name. (Tests/EndToEnd/c_client.sh compiles and runs against it.)
assert_eq "$(sed -n 's/^prefix=//p' "$prefix/lib/pkgconfig/fitd-client.pc")" "$prefix" "prefix= in fitd-client.pc"
assert_eq "$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags fitd-client | tr ' ' '\n' | grep "^-I$prefix")" \
  "-I$prefix/include/fitd-client" "pkg-config --cflags fitd-client"
[ -L "$prefix/lib/libfitd-client.so" ] && [ -e "$prefix/lib/libfitd-client.so" ] || fail "lib/libfitd-client.so is not a working link"
readelf -d "$prefix/lib/libfitd-client.so" | grep -q 'SONAME.*\[libfitd-client\.so\.0\]' || fail "libfitd-client's SONAME is not libfitd-client.so.0"
ok "PREFIX=$prefix: $(echo "$actual" | wc -l) files, as the manifest lists them, paths rendered"

# Stripped: no symbol table (file(1) says "stripped"), smaller than the build's, and they run.
for b in fitd fitctl; do
  what=$(file -b "$prefix/bin/$b")
  [[ $what == *", stripped"* ]] || fail "bin/$b is not stripped: $what"
  [ "$(stat -c %s "$prefix/bin/$b")" -lt "$(stat -c %s "$built/$b")" ] || fail "bin/$b is no smaller than the built one"
  "$prefix/bin/$b" --help >"$work/help-$b" 2>&1 || fail "the stripped $b --help: $(cat "$work/help-$b")"
done
ok "bin/fitd and bin/fitctl are stripped ($(( $(stat -c %s "$prefix/bin/fitd") / 1048576 )) MB, $(( $(stat -c %s "$prefix/bin/fitctl") / 1048576 )) MB) and run"

# The man pages render (man -l, as man-db would show them), with the real options in them.
for page in man8/fitd.8:FITD:--replace man1/fitctl.1:FITCTL:measure; do
  IFS=: read -r path title word <<<"$page"
  out=$(MANPAGER=cat MANWIDTH=80 man -l "$prefix/share/man/$path" 2>"$work/man.err") || fail "man -l $path: $(cat "$work/man.err")"
  section=${path#man}; section=${section%%/*}
  [[ $out == "$title($section)"* ]] || fail "man -l $path: header is not $title($section): $(echo "$out" | head -2)"
  [[ $out == *"$word"* ]] || fail "man -l $path does not mention $word"
done
# fitctl(1)'s EXIT STATUS lists its codes, not the generator's "0 on success, >0 if an error".
MANPAGER=cat MANWIDTH=80 man -l "$prefix/share/man/man1/fitctl.1" 2>/dev/null | awk '/^EXIT STATUS/{f=1} f' \
  | grep -qE '^ +69 +ping, status' || fail "fitctl(1)'s EXIT STATUS does not list 69"
ok "man -l renders fitd(8) and fitctl(1), with fitctl's exit codes"

# The bash completion sources cleanly and completes fitctl's subcommands.
out=$(bash -c 'source "$1" && complete -p fitctl' _ "$prefix/share/bash-completion/completions/fitctl" 2>&1) \
  || fail "sourcing the bash completion: $out"
[[ $out == "complete "*" fitctl" ]] || fail "the bash completion does not complete fitctl: $out"
out=$(bash -c 'source "$1"; COMP_WORDS=(fitctl me); COMP_CWORD=1; COMP_LINE="fitctl me"; COMP_POINT=9
  f=$(complete -p fitctl | sed -E "s/.*-F ([^ ]+).*/\1/"); "$f" fitctl me fitctl 2>/dev/null; echo "${COMPREPLY[*]}"' _ \
  "$prefix/share/bash-completion/completions/fitctl" 2>&1)
[[ $out == *measure* ]] || fail "completing 'fitctl me' gave: $out"
grep -q '^#compdef fitctl' "$prefix/share/zsh/site-functions/_fitctl" || fail "_fitctl has no #compdef line"
grep -q "^complete -c 'fitctl'" "$prefix/share/fish/vendor_completions.d/fitctl.fish" || fail "fitctl.fish completes nothing"
ok "the bash completion sources and completes 'fitctl me' to measure; zsh and fish scripts in place"

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
[ -d "$prefix/share/fitd" ] && fail "uninstall left share/fitd"
rm "$prefix/bin/someone-else" "$prefix/share/doc/fitd.keep"
make --no-print-directory uninstall PREFIX="$prefix" >/dev/null 2>&1 || fail "a second make uninstall"
ok "uninstall removed exactly the installed files (and the empty doc directory)"

# Installed twice, uninstalled once: the prefix is empty (the directories install made go too).
fresh=$work/fresh
install_into "$work/install-fresh.log" PREFIX="$fresh" MANSRC="$mandir"
install_into "$work/install-fresh2.log" PREFIX="$fresh" MANSRC="$mandir"
make --no-print-directory uninstall PREFIX="$fresh" >"$work/uninstall.log" 2>&1 || fail "make uninstall: $(cat "$work/uninstall.log")"
[ ! -e "$fresh" ] || assert_eq "$(cd "$fresh" && find . -mindepth 1)" "" "what is left in $fresh"
ok "install twice, uninstall once: nothing left of $fresh"

# 2. A prefix under $HOME: units where the user manager reads them (~/.local/share/systemd/user).
home=$work/home
mkdir "$home"
HOME=$home install_into "$work/install-home.log" PREFIX="$home/.local" MANSRC="$mandir"
[ -f "$home/.local/share/systemd/user/fitd.service" ] || fail "PREFIX under HOME: no share/systemd/user/fitd.service: $(files "$home")"
[ -e "$home/.local/lib/systemd" ] && fail "PREFIX under HOME: a unit went to lib/systemd: $(files "$home")"
HOME=$home make --no-print-directory uninstall PREFIX="$home/.local" >/dev/null 2>&1 || fail "make uninstall (home)"
assert_eq "$(cd "$home" && find . -mindepth 1)" "" "what is left in the home prefix after uninstall"
ok "PREFIX=~/.local: the unit goes to ~/.local/share/systemd/user; uninstall leaves nothing"

# 3. DESTDIR stages the tree; the rendered paths are the final ones.
install_into "$work/install-dest.log" DESTDIR="$work/stage" PREFIX=/usr/local MANSRC="$mandir"
[ -x "$work/stage/usr/local/bin/fitd" ] || fail "DESTDIR: no stage/usr/local/bin/fitd"
assert_eq "$(sed -n 's/^Exec=//p' "$work/stage/usr/local/share/dbus-1/services/org.fitd.Fit1.service")" /usr/local/bin/fitd "Exec= with DESTDIR"
assert_eq "$(sed -n 's/^ExecStart=//p' "$work/stage/usr/local/lib/systemd/user/fitd.service")" /usr/local/bin/fitd "ExecStart= with DESTDIR"
assert_eq "$(sed -n 's/^prefix=//p' "$work/stage/usr/local/lib/pkgconfig/fitd-client.pc")" /usr/local "prefix= in fitd-client.pc with DESTDIR"
make --no-print-directory uninstall DESTDIR="$work/stage" PREFIX=/usr/local >/dev/null 2>&1 || fail "make uninstall (DESTDIR)"
assert_eq "$(files "$work/stage")" "" "files left in DESTDIR after uninstall"
ok "DESTDIR=…/stage PREFIX=/usr/local: staged, paths say /usr/local; uninstall with the same DESTDIR empties it"

make --no-print-directory install PREFIX=relative/path BUILT="$built" >/dev/null 2>&1 && fail "make install accepted a relative PREFIX"
ok "a relative PREFIX is refused"
