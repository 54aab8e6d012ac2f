#!/usr/bin/env bash
# Measures a text through fitd with busctl alone (no library, no jq): the way a shell script,
# a status bar or a prompt asks "how wide is this, and does it fit?".
#
# Usage: measure.sh TEXT [FONT] [MAX_WIDTH]
#   prints:  width=94.78125 height=18.625 baseline=14.8515625 lines=1 truncated=false
#   exit 0, or 1 with fitd's error message on stderr (an InvalidArgument, an unknown font size…)
# Examples:
#   measure.sh "Hello, world" "DejaVu Sans 12"
#   measure.sh "A long label that wraps" "Noto Sans 11" 120
#   eval "$(measure.sh "$title" "Sans 10")"; [ "${width%.*}" -le 200 ] && echo fits
#
# busctl --json=short keeps every digit (its plain output rounds to 6 significant figures).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 3 ] || { sed -n '5,6p' "$0" | sed 's/^# //' >&2; exit 2; }
text=$1 font=${2:-} max_width=${3:-}

options=(0)
[ -n "$max_width" ] && options=(1 max_width d "$max_width")
# "--": a text or width starting with "-" is an argument, not an option of busctl.
reply=$(busctl --user --json=short -- call org.fitd.Fit1 /org/fitd/Fit1 org.fitd.Fit1 \
  Measure 'ssa{sv}' "$text" "$font" "${options[@]}") || exit 1

# {"type":"(dddubbasa(dddduusb)t)","data":[[W,H,B,LINES,ELLIPSIZED,TRUNCATED,[fonts],[],GEN]]}
fields=$(printf '%s' "$reply" | sed -E 's/^\{"type":"[^"]*","data":\[\[([^,]+),([^,]+),([^,]+),([0-9]+),(true|false),(true|false),.*/\1 \2 \3 \4 \6/')
read -r width height baseline lines truncated <<<"$fields"
printf 'width=%.10g height=%.10g baseline=%.10g lines=%d truncated=%s\n' "$width" "$height" "$baseline" "$lines" "$truncated"
