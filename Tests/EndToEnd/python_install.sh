#!/usr/bin/env bash
# The install README.md gives: `pip install ./clients/python` in a fresh venv (Debian's
# python3, nothing else in it; dependencies from PyPI, pip's cache makes repeats quick),
# from a read-only copy of the checkout, which the build must leave as it was (no build/,
# no egg-info), then `import fitd` measuring on the private bus through D-Bus activation.
source "$(dirname "$0")/lib.bash"
if [ -z "${E2E_INNER:-}" ]; then
  # Installing is not the daemon's time: done before the private bus and its time limit.
  venv=$(mktemp -d "${TMPDIR:-/tmp}/fitd-fresh-venv.XXXXXX")
  copy=$(mktemp -d "${TMPDIR:-/tmp}/fitd-read-only.XXXXXX")
  log=$(mktemp)
  trap 'chmod -R u+w "$copy"; rm -rf "$venv" "$copy" "$log"' EXIT
  cp -a clients/python "$copy/python"
  find "$copy" -name __pycache__ -prune -exec rm -rf {} +
  chmod -R a-w "$copy"
  (cd "$copy" && find . -printf '%p %s %T@\n' | sort) >"$log.before"
  /usr/bin/python3 -m venv "$venv" || fail "python3 -m venv"
  "$venv/bin/python" -c 'import fitd' 2>/dev/null && fail "a fresh venv already imports fitd"
  # Root writes through a-w: the listing below, not the permissions, is what shows nothing was written.
  timeout 300 "$venv/bin/pip" install --disable-pip-version-check "$copy/python" >"$log" 2>&1 \
    || { cat "$log" >&2; fail "pip install of a read-only copy of clients/python in a fresh venv"; }
  after=$(cd "$copy" && find . -printf '%p %s %T@\n' | sort)
  changed=$(diff <(cat "$log.before") <(echo "$after") || true)
  rm -f "$log.before"
  [ -z "$changed" ] || fail "pip install wrote into the source tree:"$'\n'"$changed"
  ok "pip install of a read-only copy of clients/python, which it left as it was: $(grep -E '^Successfully installed' "$log")"
  export FRESH_VENV=$venv
  status=0; on_private_bus "$@" || status=$?
  exit "$status"
fi
cd /  # not the checkout: the installed package, not clients/python/src, is imported
"$FRESH_VENV/bin/python" - <<'PY' || fail "the installed package"
import pathlib
import fitd
assert pathlib.Path(fitd.__file__).is_relative_to(pathlib.Path(__import__("sys").prefix)), fitd.__file__
assert (pathlib.Path(fitd.__file__).parent / "py.typed").exists(), "py.typed is not installed"
import fitd.adopt, fitd.cells, fitd.options, fitd.terminal, fitd.toolkits  # every module is in the wheel
with fitd.Client() as fit:
    m = fit.measure("Hello, world", "DejaVu Sans 12")
    assert (m.width, m.height, m.baseline) == (94.78125, 18.625, 14.8515625), m
    print(f"installed fitd {fitd.__version__} from {fitd.__file__}: daemon {fit.version}, width {m.width}")
PY
ok "import fitd from the fresh venv measures Hello, world as 94.78125 px through D-Bus activation"
