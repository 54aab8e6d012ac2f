#!/usr/bin/env bash
# Issue 10, classes 3-8 (itemization: spaces between fonts, special spaces, baseline shift,
# private use, paired punctuation, the ellipsis' font): the issue's minimal cases, which need
# the desktop fonts, measured by the daemon (D-Bus activated, system fontconfig) and by live
# Pango, compared to 0.01 px (Tests/oracle/itemize_classes.py).
source "$(dirname "$0")/lib.bash"
# The system's fonts, not the pinned test set; set before the bus starts the daemon, which
# inherits it. The context language of the oracle (en-us) for the daemon too.
export FONTCONFIG_FILE=/etc/fonts/fonts.conf LANG=en_US.UTF-8
unset LC_ALL LC_CTYPE
unset LANGUAGE
for family in "Noto Sans Mono" "Cantarell" "Noto Serif Kannada" "FontAwesome" "FreeSans"; do
  fc-list "$family" family | grep -q . || { echo "$TEST: skipped: desktop font $family not installed (scripts/bootstrap)"; exit 0; }
done
on_private_bus "$@"

out=$("$PY" Tests/oracle/itemize_classes.py --engine "$FITCTL measure --batch") || fail "$(printf '%s\n' "$out")"
printf '%s\n' "$out" | sed "s/^/$TEST: /"
ok "$(printf '%s\n' "$out" | tail -n 1)"
