#!/usr/bin/env bash
# Issue 12's install claim: `pip install ./clients/python` in a fresh venv (Debian's
# python3, nothing else in it; dependencies from PyPI, pip's cache makes repeats quick),
# then `import fitd` measuring on the private bus through D-Bus activation.
source "$(dirname "$0")/lib.bash"
if [ -z "${E2E_INNER:-}" ]; then
  # Installing is not the daemon's time: done before the private bus and its time limit.
  venv=$(mktemp -d "${TMPDIR:-/tmp}/fitd-fresh-venv.XXXXXX")
  trap 'rm -rf "$venv"' EXIT
  /usr/bin/python3 -m venv "$venv" || fail "python3 -m venv"
  "$venv/bin/python" -c 'import fitd' 2>/dev/null && fail "a fresh venv already imports fitd"
  log=$(mktemp); trap 'rm -rf "$venv" "$log"' EXIT
  timeout 300 "$venv/bin/pip" install --disable-pip-version-check ./clients/python >"$log" 2>&1 \
    || { cat "$log" >&2; fail "pip install ./clients/python in a fresh venv"; }
  ok "pip install ./clients/python: $(grep -E '^Successfully installed' "$log")"
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
with fitd.Client() as fit:
    m = fit.measure("Hello, world", "DejaVu Sans 12")
    assert (m.width, m.height, m.baseline) == (94.78125, 18.625, 14.8515625), m
    print(f"installed fitd {fitd.__version__} from {fitd.__file__}: daemon {fit.version}, width {m.width}")
PY
ok "import fitd from the fresh venv measures Hello, world as 94.78125 px through D-Bus activation"
