#!/usr/bin/env bash
# docs/architecture.md's module table against the package as SwiftPM reads it: every target
# but the tests has a row, no row names a target that is gone, and each row's "depends on"
# lists exactly the target's dependencies (targets and products by their names); and every
# Swift module has a test target of its own.
source "$(dirname "$0")/lib.bash"

swift package dump-package >"${TMPDIR:-/tmp}/fitd-dump-package.$$.json" 2>/dev/null || fail "swift package dump-package failed"
trap 'rm -f "${TMPDIR:-/tmp}/fitd-dump-package.$$.json"' EXIT
"$PY" - "${TMPDIR:-/tmp}/fitd-dump-package.$$.json" docs/architecture.md <<'PY' || fail "docs/architecture.md's module table and Package.swift disagree"
import json, re, sys
package = json.load(open(sys.argv[1]))
wanted = {}
for target in package["targets"]:
    if target["type"] == "test":
        continue
    deps = set()
    for dep in target.get("dependencies", []):
        for value in dep.values():
            deps.add(value[0] if isinstance(value, list) else value)
    wanted[target["name"]] = deps
text = open(sys.argv[2]).read()
section = text[text.index("## The modules"):]
section = section[:section.index("\n## ", 3)]
rows = {}
for line in section.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 3 or not cells[0].startswith("`"):
        continue
    names = re.findall(r"`([^`]+)`", cells[0])
    deps = set() if cells[2].startswith("—") else {d.strip() for d in cells[2].split(",")}
    for name in names:
        rows[name] = deps
problems = [f"{name}: no row" for name in sorted(set(wanted) - set(rows))]
problems += [f"{name}: a row for a target Package.swift does not have" for name in sorted(set(rows) - set(wanted))]
for name in sorted(set(wanted) & set(rows)):
    if wanted[name] != rows[name]:
        problems.append(f"{name}: the table says {sorted(rows[name])}, Package.swift {sorted(wanted[name])}")
# One test target per Swift module, named after it (README.md, "Tests/"). Not for the C
# targets, the tests' own support targets, or an executable whose tests are end-to-end
# (Tests/EndToEnd: the Swift example client). fitd has both: fitdTests for its command line,
# Tests/EndToEnd for the daemon on a private bus.
tests = {t["name"] for t in package["targets"] if t["type"] == "test"}
end_to_end_only = {"fit-swift-example"}
for target in package["targets"]:
    name = target["name"]
    if target["type"] == "test" or name.startswith("C") or name.endswith("TestSupport") or name in end_to_end_only:
        continue
    if name + "Tests" not in tests:
        problems.append(f"{name}: no test target {name}Tests")
for problem in problems:
    print("  " + problem, file=sys.stderr)

sys.exit(1 if problems else 0)
PY
ok "docs/architecture.md's module table matches Package.swift: every target, its dependencies exactly; every Swift module has its test target"
