#!/usr/bin/env bash
# The Python package (clients/python) against the built fitd on a private bus: its pytest
# suite (every method, sync and async, errors, GenerationChanged, layouts equal to fitctl
# fit --json), then DaemonUnavailable on a bus where org.fitd.Fit1 cannot be activated and
# ProtocolMismatch from an impostor owning the name.
source "$(dirname "$0")/lib.bash"
[ -x "$FITD_PY" ] || fail "no $FITD_PY: scripts/bootstrap makes it"
if [ -z "${E2E_INNER:-}" ]; then
  # No daemon to be had: a bus without the service file. Outside the private bus below.
  out=$("$ROOT/scripts/private-bus" --no-service -- "$FITD_PY" - 2>&1 <<'PY'
import fitd
try:
    fitd.Client(timeout=10).measure("x")
except fitd.DaemonUnavailable as error:
    assert error.name == "org.freedesktop.DBus.Error.ServiceUnknown", error.name
    print(f"DaemonUnavailable: {error}")
else:
    raise SystemExit("measure succeeded on a bus without fitd")
PY
) || fail "no activatable daemon: $out"
  ok "a bus without org.fitd.Fit1: $(echo "$out" | grep -m1 "^DaemonUnavailable" | head -c 200)"
  # Replies are outside input: another program owning the name and answering Measure with
  # other types is a ProtocolMismatch naming both signatures, not an IndexError.
  out=$("$ROOT/scripts/private-bus" --no-service -- "$FITD_PY" - 2>&1 <<'PY'
import asyncio
from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus
import fitd

async def main():
    impostor = await MessageBus().connect()
    def answer(message):
        if message.message_type is MessageType.METHOD_CALL and message.member == "Measure":
            return Message.new_method_return(message, "s", ["not metrics"])
    impostor.add_message_handler(answer)
    await impostor.request_name("org.fitd.Fit1")
    async with fitd.AsyncClient(timeout=10) as fit:
        try:
            await fit.measure("x")
        except fitd.ProtocolMismatch as error:
            assert "'s'" in error.message and "'(dddubbasa(dddduusb)t)'" in error.message, error.message
            print(f"ProtocolMismatch: {error.message}")
        else:
            raise SystemExit("an impostor's reply was taken for metrics")
asyncio.run(main())
PY
) || fail "an impostor's reply: $out"
  ok "an impostor owning org.fitd.Fit1: $(echo "$out" | grep -m1 "^ProtocolMismatch")"
  # "Typed" (py.typed) is a promise to every caller's type checker: the package passes mypy --strict.
  out=$(cd clients/python && "$FITD_PY" -m mypy --strict --cache-dir=/dev/null src/fitd 2>&1) || fail "mypy --strict: $out"
  ok "mypy --strict src/fitd: $out"
fi
on_private_bus "$@"
export FITCTL
log=$(mktemp); trap 'rm -f "$log"' EXIT
"$FITD_PY" -m pytest -q -p no:cacheprovider clients/python >"$log" 2>&1 || { cat "$log" >&2; fail "pytest clients/python"; }
ok "pytest clients/python: $(tail -n 1 "$log")"
