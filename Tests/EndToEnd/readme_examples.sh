#!/usr/bin/env bash
# The README's examples run as written, so the README cannot drift from fitctl:
# every `$ ` line of its ```console blocks (with `\` continuations) runs on a private bus with
# the built fitctl first on PATH, from a scratch directory that sees the repository's
# protocol/ (the examples name protocol/examples/…). Each must exit 0; the output lines the
# README shows under a command must appear in its output, in order. `fitctl watch &` runs in
# the background and must have printed the `scale set` that follows it.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

bin=$(mktemp -d); work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$bin" "$work"' EXIT
ln -s "$FITCTL" "$bin/fitctl"
ln -s "$ROOT/protocol" "$work/protocol"
export PATH="$bin:$PATH"

# The blocks as (command, shown output) pairs, JSON lines; a command's trailing comment stays
# (bash ignores it).
"$PY" - README.md >"$work/examples.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
inside, examples = False, []
i = 0
while i < len(lines):
    line = lines[i]
    if line.startswith("```"):
        inside = line.strip() == "```console" if not inside else False
    elif inside and line.startswith("$ "):
        command = line[2:]
        while command.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command.rstrip()[:-1] + " " + lines[i].strip()
        examples.append({"command": command, "shown": []})
    elif inside and line.strip() and examples:
        examples[-1]["shown"].append(line)
    i += 1
for example in examples:
    print(json.dumps(example, ensure_ascii=False))
PY
count=$(wc -l <"$work/examples.jsonl")
[ "$count" -ge 20 ] || fail "found only $count examples in README.md's console blocks"

watch_out=$work/watch.out
n=0
while IFS= read -r example; do
  n=$((n + 1))
  command=$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["command"])' "$example")
  shown=$("$PY" -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])["shown"]))' "$example")
  if [[ $command =~ ^fitctl\ watch\ \& ]]; then
    (cd "$work" && exec fitctl watch) >"$watch_out" 2>&1 &
    # The watch subscribes before it prints anything; give it that moment.
    for _ in $(seq 50); do busctl --user list 2>/dev/null | grep -q "fitctl" && break; sleep 0.1; done
    sleep 0.5
    continue
  fi
  out=$(cd "$work" && bash -c "$command" 2>&1) || fail "README example $n exits $?: $command
$out"
  if [ -n "$shown" ]; then
    "$PY" - "$shown" "$out" <<'PY' || fail "README example $n does not print what the README shows: $command
--- shown:
$shown
--- printed:
$out"
import sys
shown, out = sys.argv[1].split("\n"), sys.argv[2].split("\n")
at = 0
for line in shown:
    while at < len(out) and out[at].rstrip() != line.rstrip():
        at += 1
    if at == len(out):
        sys.exit(1)
    at += 1
PY
  fi
done <"$work/examples.jsonl"
ok "$n README examples ran and printed what the README shows"

if grep -q '^fitctl watch &' <(grep -h '^\$ ' README.md | cut -c3-); then
  for _ in $(seq 50); do grep -q "1.25" "$watch_out" && break; sleep 0.1; done
  grep -q "1.25" "$watch_out" || fail "the README's fitctl watch did not print the scale set 1.25: $(head -c 500 "$watch_out")"
  ok "the README's watch heard the scale set"
fi
[ -s "$work/hello.svg" ] && ok "hello.svg written" || fail "the README's --output hello.svg wrote nothing"
