#!/usr/bin/env bash
# No stale width after a restart: what a fitd saved is used by the next only when it was
# measured with the fonts, configuration and shaping libraries the next one has. Each case
# measures, changes what a width depends on, restarts fitd on the same cache directory, and
# compares its answers with a cold fitd's (an empty cache directory) under the change:
#   replaced   a font file replaced (renamed over) and fitd stopped at once, before it
#              noticed: it measured with the old font but must not stamp that with the new
#   in-place   a font file rewritten in place, size and modification time put back
#   library    HarfBuzz's hb_shape changed under the same soname (a preloaded library
#              doubling every advance stands for an upgrade)
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

by_hand
mkdir -p "$work/fonts" "$work/fc"
cat >"$work/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>$work/fonts</dir><cachedir>$work/fc</cachedir></fontconfig>
CONF
export FONTCONFIG_FILE=$work/fonts.conf
dejavu=/usr/share/fonts/truetype/dejavu
font=$work/fonts/Test.ttf
texts=("Hello, world" "Screen time this week" "Wide WWW words" "Ready")
measure_all() {
  local t
  for t in "${texts[@]}"; do
    bcall Measure 'ssa{sv}' "$t" "DejaVu Sans 12" 0 | json_get 'd["data"][0][0]'
    bcall Measure 'ssa{sv}' "$t" "DejaVu Sans 12" 1 max_width d 60 | json_get 'd["data"][0][:2]'
  done
}
cold_answers() {  # cold_answers NAME: what a fitd with an empty cache directory answers
  rm -rf "$work/cold"
  XDG_CACHE_HOME=$work/cold start_owner "$1"
  measure_all
  kill -9 "$last"; wait_gone "$last" 5 || true
}
# check CASE BEFORE: the restarted fitd's answers, against a cold fitd's and those before
check() {
  local case=$1 before=$2 warm cold
  start_owner "$case-warm"
  warm=$(measure_all)
  grep -q "warm start: [0-9]* results from" "$work/$case-warm.err" \
    && fail "$case: the restarted fitd loaded the file saved under other fonts or code"
  stop_owner
  cold=$(cold_answers "$case-cold")
  [ "$cold" != "$before" ] || fail "$case: the change did not change any width (the test proves nothing)"
  assert_eq "$warm" "$cold" "$case: answers after the restart (cold fitd's)"
  ok "$case: the restarted fitd answers as a cold one ($(echo "$cold" | head -1) px, was $(echo "$before" | head -1))"
}

# replaced: fitd measures with DejaVu Sans; the file is renamed over with DejaVu Sans Bold
# and fitd stopped within milliseconds, before its watcher reports the change.
cp "$dejavu/DejaVuSans.ttf" "$font"
start_owner replaced
before=$(measure_all)
cp "$dejavu/DejaVuSans-Bold.ttf" "$font.new" && mv "$font.new" "$font"
stop_owner
check replaced "$before"

# in-place: both fonts padded to one size; the file is rewritten where it is (same inode)
# and its modification time put back.
size=$(stat -c %s "$dejavu/DejaVuSans.ttf")
for f in DejaVuSans DejaVuSans-Bold; do
  cp "$dejavu/$f.ttf" "$work/$f.padded"; truncate -s "$size" "$work/$f.padded"
done
rm -f "$font"; cp "$work/DejaVuSans.padded" "$font"; touch -d '2020-01-01 00:00:00' "$font"
rm -rf "$work/fc"/* "$XDG_CACHE_HOME/fitd"
start_owner in-place
before=$(measure_all)
stop_owner
inode=$(stat -c %i "$font")
dd if="$work/DejaVuSans-Bold.padded" of="$font" conv=notrunc status=none
touch -d '2020-01-01 00:00:00' "$font"
assert_eq "$(stat -c '%i %s %Y' "$font")" "$inode $size $(date -d '2020-01-01 00:00:00' +%s)" "in-place: inode, size and mtime kept"
check in-place "$before"

# library: hb_shape wrapped by a preloaded library that doubles every advance.
cat >"$work/shape.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <hb.h>
void hb_shape(hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned int count) {
  void (*real)(hb_font_t *, hb_buffer_t *, const hb_feature_t *, unsigned int) =
      (void (*)(hb_font_t *, hb_buffer_t *, const hb_feature_t *, unsigned int))dlsym(RTLD_NEXT, "hb_shape");
  real(font, buffer, features, count);
  unsigned int n = 0;
  hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, &n);
  for (unsigned int i = 0; i < n; i++) positions[i].x_advance *= 2;
}
C
cc -shared -fPIC -o "$work/libshape.so" "$work/shape.c" $(pkg-config --cflags harfbuzz) -ldl \
  || fail "cannot build the preloaded hb_shape"
rm -f "$font"; cp "$dejavu/DejaVuSans.ttf" "$font"
rm -rf "$work/fc"/* "$XDG_CACHE_HOME/fitd"
start_owner library
before=$(measure_all)
stop_owner
# Every process from here on has it (busctl and python do not shape): the restarted fitd and
# the cold one alike.
export LD_PRELOAD=$work/libshape.so
check library "$before"
