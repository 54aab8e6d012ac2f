#!/usr/bin/env bash
# Classes 3-8 (itemization: spaces between fonts, special spaces, baseline shift, private
# use, paired punctuation, the ellipsis' font; PANGO_RULES.md §14): their minimal cases, which need
# the desktop fonts, measured by the daemon (D-Bus activated, system fontconfig) and by live
# Pango, compared to 0.01 px (Tests/oracle/itemize_classes.py).
source "$(dirname "$0")/lib.bash"
# The system's fonts, not the pinned test set; set before the bus starts the daemon, which
# inherits it. The context language is the oracle's (en-us), given with each request: the
# daemon's own default follows the locale, and en_US.UTF-8 need not be installed (then
# glibc, and so Pango and fitd, fall back to C: language "c").
export FONTCONFIG_FILE=/etc/fonts/fonts.conf
unset LANGUAGE
for family in "Noto Sans Mono" "Cantarell" "Noto Serif Kannada" "FontAwesome" "FreeSans"; do
  fc-list "$family" family | grep -q . || skip "desktop font $family not installed (scripts/bootstrap)"
done
on_private_bus "$@"

out=$("$PY" Tests/oracle/itemize_classes.py --engine "$FITCTL measure --batch --language en-us") || fail "$(printf '%s\n' "$out")"
printf '%s\n' "$out" | sed "s/^/$TEST: /"
ok "$(printf '%s\n' "$out" | tail -n 1)"
