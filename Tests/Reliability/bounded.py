"""Every accepted request is bounded (docs/reliability.md, "Worst cases"): the heaviest
request of each family the daemon accepts is answered within a second, and one past a limit
is refused at once with a named error. Each case prints its time; run against the release
build by scripts/stress (Tests/Reliability/bounded.sh), on a private bus.

  fonts       a MeasureBatch of 10,000 texts in 256 families nobody has (the most distinct
              fonts a request may name: each new one is a fontconfig sort), and one naming
              10,000 (refused: TooLarge)
  layout      a Layout of 9,990 texts in 256 unknown families, and one naming 9,990
  scalegroup  a scaleGroup of 1,000 texts shrunk together (searched at a dozen factors), and
              one of 1,001 (refused)
"""
import os
import sys
import time

import dbus

from reliability import EMPTY, Checks, Fit, options

LIMIT_SECONDS = float(os.environ.get("BOUND_SECONDS", "1.0"))
REFUSE_SECONDS = 0.5
MAX_FONTS = 256  # TextLimits.maxFontsPerRequest
MAX_GROUP = 1000  # LayoutLimits.maxScaleGroupMembers
check = Checks("bounded")


def timed(call):
    start = time.monotonic()
    try:
        call()
        return time.monotonic() - start, None
    except dbus.DBusException as error:
        return time.monotonic() - start, error.get_dbus_name()


def accepted(name, call):
    seconds, error = timed(call)
    check.figure(f"{name}: {seconds:.2f} s, {error or 'answered'}")
    check(f"{name}: answered within {LIMIT_SECONDS:.1f} s", error is None and seconds <= LIMIT_SECONDS,
          f"{seconds:.2f} s, {error or 'answered'}")


def refused(name, call, expected="org.fitd.Fit1.Error.TooLarge"):
    seconds, error = timed(call)
    check.figure(f"{name}: {seconds:.2f} s, {error or 'answered'}")
    check(f"{name}: refused with {expected} within {REFUSE_SECONDS} s", error == expected and seconds <= REFUSE_SECONDS,
          f"{seconds:.2f} s, {error or 'answered'}")


def texts_layout(count, fonts):
    return [("root", "vstack", -1, EMPTY)] + [
        (f"t{i}", "text", 0, options(text=f"text {i} of the list", font=f"Nofamily{i % fonts} 12")) for i in range(count)]


def scale_group(count):
    return [("g", "scaleGroup", -1, options(minimumScaleFactor=dbus.Double(0.5))), ("row", "hstack", 0, EMPTY)] + [
        (f"t{i}", "text", 1, options(text=f"label {i}", lineLimit=dbus.Int32(1))) for i in range(count)]


def main():
    fit = Fit()
    fit.measure("warm")  # activated, fonts loaded
    parts = os.environ.get("PARTS", "fonts layout scalegroup").split()
    if "fonts" in parts:
        accepted(f"fonts: MeasureBatch of 10,000 texts in {MAX_FONTS} unknown families",
                 lambda: fit.batch([(f"text {i}", f"Unknownfamily{i % MAX_FONTS} 12", EMPTY) for i in range(10_000)], timeout=60))
        refused("fonts: MeasureBatch of 10,000 texts each in its own unknown family",
                lambda: fit.batch([(f"text {i}", f"Otherfamily{i} 12", EMPTY) for i in range(10_000)], timeout=60))
    if "layout" in parts:
        accepted(f"layout: Layout of 9,990 texts in {MAX_FONTS} unknown families",
                 lambda: fit.layout(texts_layout(9_990, MAX_FONTS), timeout=60))
        refused("layout: Layout of 9,990 texts each in its own unknown family",
                lambda: fit.layout(texts_layout(9_990, 9_990), timeout=60))
    if "scalegroup" in parts:
        accepted(f"scalegroup: a scaleGroup of {MAX_GROUP} texts in 300 px",
                 lambda: fit.layout(scale_group(MAX_GROUP), proposal=(True, 300.0, False, 0.0), timeout=60))
        refused(f"scalegroup: a scaleGroup of {MAX_GROUP + 1} texts",
                lambda: fit.layout(scale_group(MAX_GROUP + 1), proposal=(True, 300.0, False, 0.0), timeout=60))
    check.exit()


if __name__ == "__main__":
    main()
