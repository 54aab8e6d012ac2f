# Sourced by every Tests/EndToEnd/*.sh: paths, assertions, and the private bus.
# Each test re-runs itself under scripts/private-bus (on_private_bus), so the fitd it talks
# to is started by real D-Bus activation, and everything it started is gone afterwards.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
export FITD=${FITD:-$ROOT/.build/debug/fitd}
export FITCTL=${FITCTL:-$ROOT/.build/debug/fitctl}
export FONTCONFIG_FILE=$ROOT/Tests/fonts/fonts.conf
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$ROOT/.build/test-cache}
# Debian's python, which has python3-dbus and python3-gi; a pyenv or venv one may not.
PY=/usr/bin/python3
# The venv scripts/bootstrap makes with the Python package clients/python installed (fitd).
FITD_PY=$ROOT/.build/pyenv/bin/python
TEST=$(basename "$0" .sh)
BUS=org.fitd.Fit1
OBJ=/org/fitd/Fit1
IFACE=org.fitd.Fit1

fail() { echo "$TEST: FAIL: $*" >&2; exit 1; }
ok() { echo "$TEST: ok: $*"; }
# A check that cannot run here: says why and exits 77, which scripts/steps.bash counts as
# skipped (automake's code), never as passed.
skip() { echo "$TEST: SKIP: $*"; exit 77; }

# Re-runs the calling script on a private bus within a time limit (every test must finish
# in under 60 s). The bus's and the activated daemons' stderr go to $E2E_LOG, shown on failure.
on_private_bus() {
  [ -n "${E2E_INNER:-}" ] && return 0
  [ -x "$FITD" ] || fail "no fitd at $FITD (swift build first, or set FITD)"
  local log config cache status=0
  log=$(mktemp "${TMPDIR:-/tmp}/fitd-e2e-$TEST.XXXXXX")
  # An empty config home: the user's fitd.conf (limits, text scale) and fontconfig
  # settings must not change the figures the tests expect.
  config=$(mktemp -d "${TMPDIR:-/tmp}/fitd-e2e-config.XXXXXX")
  # A cache home of its own, so that no test starts warm from another's saved results
  # (fitd's results.bin), sharing only fontconfig's cache of the pinned fonts (a rescan of
  # the Noto directories costs seconds).
  cache=$(mktemp -d "${TMPDIR:-/tmp}/fitd-e2e-cache.XXXXXX")
  mkdir -p "$XDG_CACHE_HOME/fitd-test-fontconfig"
  ln -s "$XDG_CACHE_HOME/fitd-test-fontconfig" "$cache/fitd-test-fontconfig"
  E2E_INNER=1 E2E_LOG=$log XDG_CONFIG_HOME=$config XDG_CACHE_HOME=$cache timeout -k 5 "${E2E_TIMEOUT:-55}" \
    "$ROOT/scripts/private-bus" --fitd "$FITD" --log "$log" -- bash "$0" "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    [ "$status" -eq 124 ] && echo "$TEST: FAIL: timed out after ${E2E_TIMEOUT:-55} s" >&2
    echo "--- bus and daemon log ($TEST):" >&2
    tail -n 30 "$log" >&2 || true
  fi
  rm -rf "$log" "$config" "$cache"
  exit "$status"
}

# For a test that starts fitd by hand: a scratch directory $work, and `start NAME [ARGS…]`,
# which runs fitd in the background with its stderr in $work/NAME.err and its pid in $last;
# every fitd started is killed, and $work removed, when the test exits.
by_hand() {
  work=$(mktemp -d)
  started=()
  trap by_hand_cleanup EXIT
}
by_hand_cleanup() {
  local pid
  for pid in "${started[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
start() {
  local name=$1; shift
  "$FITD" "$@" 2>"$work/$name.err" &
  last=$!
  started+=("$last")
}

# assert_eq ACTUAL EXPECTED WHAT
assert_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }

# The pid of the process owning org.fitd.Fit1, or nothing.
daemon_pid() {
  busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
    GetConnectionUnixProcessID s "$BUS" 2>/dev/null | awk '{print $2}'
}

has_owner() {
  [ "$(busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s "$BUS")" = "b true" ]
}

# Waits until pid is gone (or a zombie), up to $2 seconds (default 5).
wait_gone() {
  local pid=$1 limit=${2:-5} i=0 state
  while [ "$i" -lt $((limit * 20)) ]; do
    state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
    [ "$state" = gone ] || [ "$state" = Z ] && return 0
    sleep 0.05; i=$((i + 1))
  done
  return 1
}

# busctl --json=short call …: prints the reply's data array as JSON.
bcall() { busctl --user --json=short call "$BUS" "$OBJ" "$IFACE" "$@"; }

# jq-less JSON access: json_get EXPR < json, EXPR a Python expression over `d`.
json_get() { "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# For by_hand tests: `start_owner NAME [ARGS…]` starts a fitd and waits until it owns the
# name; `stop_owner` sends the last one SIGTERM and checks it exits 0 within 5 s.
start_owner() {
  start "$@"
  for _ in $(seq 200); do [ "$(daemon_pid)" = "$last" ] && return 0; sleep 0.05; done
  fail "fitd $1 did not get $BUS: $(cat "$work/$1.err")"
}
stop_owner() {
  kill -TERM "$last"
  wait_gone "$last" 5 || fail "fitd $last still running 5 s after SIGTERM"
  local status=0
  wait "$last" || status=$?
  assert_eq "$status" 0 "exit status after SIGTERM"
}

# For the libfitd-client tests (c_client*.sh), before the private bus: `c_client_build NAME`
# makes the scratch directory $C_WORK (exported for the run on the bus, removed on exit)
# and installs the library there (c_client_install), with $prefix its prefix.
c_client_build() {
  C_WORK=$(mktemp -d "${TMPDIR:-/tmp}/fitd-c-$1.XXXXXX")
  export C_WORK
  trap 'rm -rf "$C_WORK"' EXIT
  prefix=$C_WORK/prefix
  c_client_install
}
# Builds clients/c from scratch (scripts/c-client) in the scratch directory $C_WORK and
# installs it into $C_WORK/prefix, then points pkg-config there.
c_client_install() {
  local prefix=$C_WORK/prefix
  scripts/c-client "$C_WORK/build" "$prefix" >"$C_WORK/build.log" 2>&1 || fail "scripts/c-client: $(tail -20 "$C_WORK/build.log")"
  meson install -C "$C_WORK/build" --no-rebuild >"$C_WORK/install.log" 2>&1 || fail "meson install: $(tail -20 "$C_WORK/install.log")"
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
}
# c_client_compile NAME C_SOURCE VALA_SOURCE: a C program compiled against the installed
# fitd-client.pc as $C_WORK/NAME, a Vala one against the installed VAPI as $C_WORK/vala/NAME-vala.
c_client_compile() {
  local name=$1 c_source=$2 vala_source=$3 prefix=$C_WORK/prefix
  # shellcheck disable=SC2046 # pkg-config's flags are words
  cc -Wall -Wextra -Werror -o "$C_WORK/$name" "$c_source" $(pkg-config --cflags --libs fitd-client) \
    2>"$C_WORK/cc.log" || fail "cc $c_source: $(cat "$C_WORK/cc.log")"
  valac -q --vapidir "$prefix/share/vala/vapi" --pkg fitd-client -X -I"$prefix/include/fitd-client" -X -L"$prefix/lib" \
    -X -lfitd-client -X -w -d "$C_WORK/vala" -o "$name-vala" "$vala_source" \
    >"$C_WORK/valac.log" 2>&1 || fail "valac $vala_source: $(cat "$C_WORK/valac.log")"
}

# For tests in a tmux of their own (socket $dir/tmux, session "fit"; python_terminal.sh, fitctl_terminal.sh,
# c_client_terminal.sh): `tmux_pane NAME COMMAND FILE` runs COMMAND in a new window NAME
# (the first makes the session, 80×24) and waits, 10 s at most, until FILE is written.
tmux_pane() {
  local i
  if tmux -S "$dir/tmux" has-session 2>/dev/null; then
    tmux -S "$dir/tmux" new-window -t fit -n "$1" "$2"
  else
    tmux -S "$dir/tmux" -f /dev/null new-session -d -s fit -n "$1" -x 80 -y 24 "$2"
  fi
  for i in $(seq 100); do [ -s "$3" ] && return 0; sleep 0.1; done
  fail "$1: no answer from the pane within 10 s: $(tmux -S "$dir/tmux" capture-pane -p -t "fit:$1" 2>&1 | head -c 400)"
}
