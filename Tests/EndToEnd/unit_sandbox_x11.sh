#!/usr/bin/env bash
# The real fitd in the namespaces of its systemd unit reads Xft.dpi from an X server outside
# them. systemd/fitd.service.in is rendered as `make install` renders it, and its file-system
# and namespace settings are applied around the built fitd with bubblewrap, as systemd would
# apply them: PrivateTmp= (a private /tmp and /var/tmp), BindPaths=/BindReadOnlyPaths= (after
# the mounts above them, sources from the host's tree, "-": skipped when missing),
# ProtectSystem=, ProtectHome=, PrivateDevices=, ConfigurationDirectory=/CacheDirectory=
# (writable, with $CONFIGURATION_DIRECTORY/$CACHE_DIRECTORY), PrivateNetwork=, PrivateIPC=,
# ProtectHostname=, PrivateUsers=; the unit's ExecStart= is what runs. A setting that could
# change what fitd reaches and that this script does not translate fails the test, so the
# test follows the unit. (Seccomp, capability and kernel-tunable settings are not applied:
# they decide no path or socket fitd can see; RestrictAddressFamilies= must keep AF_UNIX.)
#
# The world outside is a session's: Xvfb on a free display with a cookie (-auth), Xft.dpi
# 144 loaded with xrdb, $XAUTHORITY and the session bus in a runtime directory outside /tmp,
# as /run/user/UID is. fitctl asks from outside, with no DISPLAY, so an answer of its own
# (the in-process fallback) could not read Xft.dpi: the unit must give 1.5 (xresources),
# the same unit without its /tmp/.X11-unix bind 1 (default: the X server unreachable), and
# an $XAUTHORITY under /tmp 1 (default: PrivateTmp= hides it; the unit's comment says so).
#
# Why not the unit under a real systemd user manager: there is none here (PID 1 is not
# systemd). `systemd --user` does start in a mount namespace with a /run/systemd/system of
# its own, but where its cgroup is the root one it moves every process of the machine into
# an init.scope: not something a test may do.
source "$(dirname "$0")/lib.bash"
for tool in bwrap Xvfb xrdb xauth mcookie dbus-daemon busctl; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/bootstrap installs it)"
done
[ -x "$FITD" ] || fail "no fitd at $FITD (swift build first, or set FITD)"
[ -x "$FITCTL" ] || fail "no fitctl at $FITCTL (swift build first, or set FITCTL)"

# The runtime directory: not under /tmp, which the sandbox replaces.
base=""
for dir in "${XDG_RUNTIME_DIR:-}" /run "$ROOT/.build"; do
  case $dir in "" | /tmp | /tmp/* | /var/tmp | /var/tmp/*) continue ;; esac
  [ -d "$dir" ] && [ -w "$dir" ] && { base=$dir; break; }
done
[ -n "$base" ] || fail "no writable directory outside /tmp for the bus and the X authority"
run=$(mktemp -d "$base/fitd-e2e-x11.XXXXXX") || fail "cannot make a directory in $base"
chmod 0700 "$run"
started=()
hidden_auth=""
cleanup() {
  local pid
  # SIGTERM first: Xvfb removes its socket file then. A sandbox's fitd dies with its bwrap
  # (--die-with-parent).
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 40); do
    for pid in "${started[@]}"; do kill -0 "$pid" 2>/dev/null && break; pid=""; done
    [ -z "$pid" ] && break
    sleep 0.05
  done
  for pid in "${started[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  [ -z "$hidden_auth" ] || rm -rf "$hidden_auth"
  rm -rf "$run"
}
trap cleanup EXIT

# --- the session: X server with a cookie, Xft.dpi 144, a session bus
cookie=$(mcookie)
: >"$run/server.auth"
: >"$run/Xauthority"
xauth -q -f "$run/server.auth" add ":0" MIT-MAGIC-COOKIE-1 "$cookie"
# -displayfd: a free display, its number written once clients are accepted. The server
# takes every cookie in its -auth file, whatever display the entry names.
Xvfb -displayfd 3 -auth "$run/server.auth" -nolisten tcp -noreset -screen 0 64x64x24 \
  3>"$run/display" 2>"$run/xvfb.log" &
started+=($!)
for _ in $(seq 100); do [ -s "$run/display" ] && break; sleep 0.05; done
[ -s "$run/display" ] || fail "Xvfb did not start: $(tail -n 5 "$run/xvfb.log")"
number=$(head -1 "$run/display")
export DISPLAY=":$number" XAUTHORITY="$run/Xauthority"
xauth -q -f "$XAUTHORITY" add "$DISPLAY" MIT-MAGIC-COOKIE-1 "$cookie"
echo 'Xft.dpi: 144' | xrdb -merge || fail "xrdb -merge failed"
xrdb -query | grep -q '^Xft.dpi:[[:space:]]*144$' || fail "xrdb -query has no Xft.dpi 144: $(xrdb -query)"
XAUTHORITY=/dev/null xrdb -query >/dev/null 2>&1 && fail "the X server answers without the cookie"
[ -S "/tmp/.X11-unix/X$number" ] || fail "no socket file /tmp/.X11-unix/X$number"
grep -q "@/tmp/.X11-unix/X$number\$" /proc/net/unix || fail "Xvfb has no abstract socket @/tmp/.X11-unix/X$number"
ok "Xvfb $DISPLAY (socket file and abstract socket), cookie in $XAUTHORITY, Xft.dpi 144"

cat >"$run/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$run/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$run/bus.conf" --nofork --print-address=3 3>"$run/bus.address" 2>"$run/bus.log" &
started+=($!)
for _ in $(seq 100); do [ -s "$run/bus.address" ] && break; sleep 0.05; done
[ -s "$run/bus.address" ] || fail "dbus-daemon did not start: $(tail -n 5 "$run/bus.log")"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$run/bus"

# --- the unit, rendered as scripts/install renders it
# fitd installed outside /tmp, as make install puts it: a checkout under /tmp (a CI clone may
# be one) would be hidden from the sandbox by PrivateTmp= with the binary in it.
mkdir -p "$run/bin" && cp "$FITD" "$run/bin/fitd" || fail "cannot copy $FITD into $run/bin"
unit=$run/fitd.service
sed -e "s|@bindir@|$run/bin|g" -e "s|@docdir@|$ROOT|g" systemd/fitd.service.in >"$unit"
grep -qE '@[a-z]+@' "$unit" && fail "a placeholder is left: $(grep -E '@[a-z]+@' "$unit")"

# service_settings UNIT: the [Service] section's KEY=VALUE lines.
service_settings() {
  sed -n '/^\[Service\]/,/^\[/{/^[A-Za-z]/p}' "$1"
}
grep -q '\\$' "$unit" && fail "a continued line in the unit: this script reads one setting a line"
yes_no() { case $1 in yes | true | on | 1) echo yes ;; *) echo no ;; esac; }

# translate UNIT: sets sandbox=() (bwrap's arguments) and exec_start=() from the unit, and
# creates the ConfigurationDirectory=/CacheDirectory= directories below $run.
translate() {
  local key value entry src dst opts try path
  local private_tmp=no private_devices=no protect_system=no protect_home=no families=""
  local -a binds=() mounts=() flags=() dirs=()
  exec_start=()
  service_env=()
  while IFS='=' read -r key value; do
    case $key in
      PrivateTmp) private_tmp=$(yes_no "$value") ;;
      PrivateDevices) private_devices=$(yes_no "$value") ;;
      ProtectSystem) protect_system=$value ;;
      ProtectHome) protect_home=$value ;;
      PrivateNetwork) [ "$(yes_no "$value")" = no ] || flags+=(--unshare-net) ;;
      PrivateIPC) [ "$(yes_no "$value")" = no ] || flags+=(--unshare-ipc) ;;
      ProtectHostname) [ "$(yes_no "$value")" = no ] || flags+=(--unshare-uts) ;;
      PrivateUsers) [ "$(yes_no "$value")" = no ] || flags+=(--unshare-user) ;;
      BindPaths | BindReadOnlyPaths)
        # An empty assignment resets the list (systemd.exec(5)).
        if [ -z "$value" ]; then binds=(); else for entry in $value; do binds+=("$key $entry"); done; fi ;;
      ConfigurationDirectory) dirs+=("CONFIGURATION_DIRECTORY $run/config/$value") ;;
      CacheDirectory) dirs+=("CACHE_DIRECTORY $run/cache/$value") ;;
      RestrictAddressFamilies) families=$value ;;
      ExecStart) read -ra exec_start <<<"$value" ;;
      # Settings that decide no path or socket fitd can reach.
      Type | BusName | Restart | RestartSec | StandardError | ConfigurationDirectoryMode | CacheDirectoryMode \
        | ProtectClock | ProtectKernelTunables | ProtectKernelModules | ProtectKernelLogs | ProtectControlGroups \
        | ProtectProc | ProcSubset | RestrictNamespaces | RestrictRealtime | RestrictSUIDSGID | LockPersonality \
        | MemoryDenyWriteExecute | NoNewPrivileges | RemoveIPC | UMask | CapabilityBoundingSet | AmbientCapabilities \
        | SystemCallArchitectures | SystemCallFilter | SystemCallErrorNumber | DevicePolicy | IPAddressDeny \
        | KeyringMode | NotifyAccess) ;;
      *) fail "the unit sets $key=, which this script does not translate: add it to translate()" ;;
    esac
  done < <(service_settings "$1")
  [ "${#exec_start[@]}" -gt 0 ] || fail "the unit has no ExecStart="
  [ -z "$families" ] || [[ " $families " == *" AF_UNIX "* ]] \
    || fail "RestrictAddressFamilies=$families: the X server and the bus need AF_UNIX"

  # Mount entries "DESTINATION<TAB>ARGUMENTS", applied in path order (prefixes first), as
  # systemd orders its mount entries; bwrap takes every source from the host's tree, as
  # systemd does from its staging root.
  case $protect_system in
    strict) mounts+=("/"$'\t'"--ro-bind / /") ;;
    no | false | "") mounts+=("/"$'\t'"--bind / /") ;;
    yes | true | full)
      mounts+=("/"$'\t'"--bind / /")
      for path in /usr /boot /efi; do mounts+=("$path"$'\t'"--ro-bind-try $path $path"); done
      [ "$protect_system" != full ] || mounts+=("/etc"$'\t'"--ro-bind /etc /etc") ;;
    *) fail "ProtectSystem=$protect_system: not translated" ;;
  esac
  case $protect_home in
    read-only) for path in /home /root /run/user; do mounts+=("$path"$'\t'"--ro-bind-try $path $path"); done ;;
    yes | true | tmpfs)
      for path in /home /root /run/user; do
        [ -d "$path" ] && mounts+=("$path"$'\t'"--tmpfs $path --remount-ro $path")
      done ;;
    no | false | "") ;;
    *) fail "ProtectHome=$protect_home: not translated" ;;
  esac
  if [ "$private_tmp" = yes ]; then
    mounts+=("/tmp"$'\t'"--tmpfs /tmp" "/var/tmp"$'\t'"--tmpfs /var/tmp")
  fi
  if [ "$private_devices" = yes ]; then mounts+=("/dev"$'\t'"--dev /dev"); else mounts+=("/dev"$'\t'"--dev-bind /dev /dev"); fi
  mounts+=("/proc"$'\t'"--proc /proc")
  for entry in "${binds[@]}"; do
    key=${entry%% *} entry=${entry#* }
    try=""
    [ "${entry#-}" = "$entry" ] || { try=-try; entry=${entry#-}; }
    IFS=: read -r src dst opts <<<"$entry"
    dst=${dst:-$src}
    [ -z "$opts" ] || [ "$opts" = rbind ] || fail "$key=$entry: option $opts not translated"
    if [ "$key" = BindReadOnlyPaths ]; then
      mounts+=("$dst"$'\t'"--ro-bind$try $src $dst")
    else
      mounts+=("$dst"$'\t'"--bind$try $src $dst")
    fi
  done
  for entry in "${dirs[@]}"; do
    path=${entry#* }
    mkdir -p -m 0700 "$path"
    mounts+=("$path"$'\t'"--bind $path $path")
    service_env+=("${entry%% *}=$path")
  done
  sandbox=(--die-with-parent "${flags[@]}")
  while IFS=$'\t' read -r dst entry; do
    read -ra opts <<<"$entry"
    sandbox+=("${opts[@]}")
  done < <(printf '%s\n' "${mounts[@]}" | LC_ALL=C sort -t $'\t' -k1,1 -s)
}

# The user manager's environment, as a session leaves it (DISPLAY and XAUTHORITY imported
# into it), plus what the unit's directories set. The user's own settings stay out: an
# empty XDG_CONFIG_HOME, GSettings in memory. Sets environment=(NAME=VALUE...).
service_environment() {  # service_environment XAUTHORITY
  environment=(PATH=/usr/local/bin:/usr/bin:/bin "HOME=$HOME" LANG=C.UTF-8 "XDG_RUNTIME_DIR=$run"
    "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS" "DISPLAY=$DISPLAY" "XAUTHORITY=$1"
    "XDG_CONFIG_HOME=$run/config" "XDG_CACHE_HOME=$XDG_CACHE_HOME" "FONTCONFIG_FILE=$FONTCONFIG_FILE"
    GSETTINGS_BACKEND=memory "${service_env[@]}")
}

# inside UNIT XAUTHORITY COMMAND...: COMMAND in the unit's sandbox, with its environment.
inside() {
  local unit=$1 auth=$2; shift 2
  translate "$unit"
  service_environment "$auth"
  timeout -k 2 10 bwrap "${sandbox[@]}" -- /usr/bin/env -i "${environment[@]}" "$@"
}

# probe UNIT: what the sandbox shows of the X server, one word a line: the number of X
# sockets in /proc/net/unix (abstract ones are per network namespace), "socket" (the
# file is there), "read-only", "cookie" ($XAUTHORITY readable), "private-tmp" (writable).
probe() {
  inside "$1" "$XAUTHORITY" /bin/sh -c '
    grep -c "X11-unix" /proc/net/unix
    test -S "/tmp/.X11-unix/X$1" && echo socket
    touch /tmp/.X11-unix/w 2>/dev/null || echo read-only
    test -r "$XAUTHORITY" && echo cookie
    touch /tmp/w && echo private-tmp' probe "$number" 2>&1 | tr '\n' ' ' || true
}

# scale_under NAME UNIT XAUTHORITY: starts the unit's ExecStart in its sandbox, waits for it
# to own org.fitd.Fit1, checks that the owner is that sandboxed fitd, and sets $scale to
# "FACTOR SOURCE" from `fitctl scale --json`, run outside with no DISPLAY (an in-process
# answer could not read Xft.dpi, and would say so on stderr). Then stops fitd with SIGTERM,
# as `systemctl --user stop` does.
scale_under() {
  local name=$1 unit=$2 auth=$3 sandbox_pid owner out
  translate "$unit"
  service_environment "$auth"
  bwrap "${sandbox[@]}" -- /usr/bin/env -i "${environment[@]}" "${exec_start[@]}" 2>"$run/$name.log" &
  sandbox_pid=$!
  started+=("$sandbox_pid")
  for _ in $(seq 400); do has_owner && break; kill -0 "$sandbox_pid" 2>/dev/null || break; sleep 0.05; done
  has_owner || fail "$name: fitd did not take $BUS within 20 s: $(tail -n 5 "$run/$name.log")"
  owner=$(daemon_pid)
  # bwrap forks the sandboxed process and waits for it: that child is fitd.
  [ "$(awk '{print $4}' "/proc/$owner/stat" 2>/dev/null)" = "$sandbox_pid" ] \
    || fail "$name: $BUS is owned by pid $owner, not by the fitd in the sandbox (bwrap $sandbox_pid)"
  [ "$(readlink "/proc/$owner/ns/net")" != "$(readlink /proc/self/ns/net)" ] \
    || fail "$name: the fitd owning $BUS is not in a network namespace of its own"
  [ "$(readlink "/proc/$owner/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] \
    || fail "$name: the fitd owning $BUS is not in a mount namespace of its own"
  out=$(env -u DISPLAY -u XAUTHORITY timeout 20 "$FITCTL" scale --json 2>"$run/$name.fitctl.err") \
    || fail "$name: fitctl scale --json failed: $(cat "$run/$name.fitctl.err")"
  [ ! -s "$run/$name.fitctl.err" ] || fail "$name: fitctl did not ask the daemon: $(cat "$run/$name.fitctl.err")"
  scale=$(json_get '"%g %s" % (d["factor"], d["source"])' <<<"$out")
  ui_font=$(json_get '"%s (%s)" % (d["ui_font"], d.get("ui_font_source"))' <<<"$out")
  kill "$owner" 2>/dev/null || true
  for _ in $(seq 100); do has_owner || break; sleep 0.05; done
  kill -9 "$sandbox_pid" 2>/dev/null || true
  wait "$sandbox_pid" 2>/dev/null || true
}

# --- the unit as it is: the X server's socket directory is bound into the private /tmp
translate "$unit"
[[ " ${sandbox[*]} " == *" --tmpfs /tmp "* ]] || fail "the unit has no PrivateTmp=yes (this test is about it)"
[[ " ${sandbox[*]} " == *" --unshare-net "* ]] || fail "the unit has no PrivateNetwork=yes (this test is about it)"
ok "the unit's sandbox: bwrap ${sandbox[*]//$run/\$run}"
seen=$(probe "$unit")
scale_under unit "$unit" "$XAUTHORITY"
[ "$scale" = "1.5 xresources" ] \
  || fail "under the unit, fitd reports '$scale', expected '1.5 xresources' (Xft.dpi 144); inside the sandbox: $seen; fitd: $(tail -n 3 "$run/unit.log")"
ok "under the unit, fitd reads Xft.dpi 144 through /tmp/.X11-unix/X$number: scale $scale"
[ "$seen" = "0 socket read-only cookie private-tmp " ] \
  || fail "inside the sandbox: '$seen', expected '0 socket read-only cookie private-tmp ' (no abstract X socket, the socket file on a read-only mount, the cookie readable, /tmp private and writable)"
ok "inside: no abstract X socket (a network namespace of its own), /tmp/.X11-unix/X$number on a read-only mount in a writable private /tmp, the cookie readable"

# --- the same unit without the bind: the X server is out of reach, the scale the default
grep -q '^BindReadOnlyPaths=.*/tmp/\.X11-unix' "$unit" || fail "the unit does not bind /tmp/.X11-unix"
sed '/^BindReadOnlyPaths=.*\/tmp\/\.X11-unix/d' "$unit" >"$run/unbound.service"
seen=$(probe "$run/unbound.service")
[ "$seen" = "0 read-only cookie private-tmp " ] || fail "without the bind, inside the sandbox: '$seen'"
scale_under unbound "$run/unbound.service" "$XAUTHORITY"
[ "$scale" = "1 default" ] || fail "without the bind, fitd reports '$scale', expected '1 default'"
ok "without BindReadOnlyPaths=-/tmp/.X11-unix (PrivateTmp= and PrivateNetwork= hide both sockets): scale $scale"

# --- an $XAUTHORITY under /tmp: PrivateTmp= hides the cookie, the server refuses fitd
hidden_auth=$(mktemp -d /tmp/fitd-e2e-xauth.XXXXXX)
cp "$XAUTHORITY" "$hidden_auth/Xauthority"
XAUTHORITY=$hidden_auth/Xauthority xrdb -query >/dev/null || fail "the cookie under /tmp does not work outside"
scale_under tmp-cookie "$unit" "$hidden_auth/Xauthority"
[ "$scale" = "1 default" ] || fail "with \$XAUTHORITY under /tmp, fitd reports '$scale', expected '1 default'"
ok "with \$XAUTHORITY under /tmp (hidden by PrivateTmp=, as the unit says): scale $scale"

# --- an XSETTINGS manager on the display (xsettingsd, as under i3 or with kde-gtk-config):
# under the unit, fitd reads its Gtk/FontName and Xft/DPI through the same socket, over Xft.dpi.
command -v xsettingsd >/dev/null || fail "xsettingsd is not installed (scripts/bootstrap)"
printf 'Gtk/FontName "Noto Sans 12"\nXft/DPI 147456\n' >"$run/xsettingsd.conf"
xsettingsd -c "$run/xsettingsd.conf" >"$run/xsettingsd.log" 2>&1 &
started+=($!)
for _ in $(seq 100); do
  xprop -root _XSETTINGS_S0 >/dev/null 2>&1 && break
  grep -q "Created window" "$run/xsettingsd.log" 2>/dev/null && break
  sleep 0.05
done
sleep 0.2
scale_under xsettings "$unit" "$XAUTHORITY"
[ "$scale" = "1.5 xsettings" ] || fail "with xsettingsd (Xft/DPI 147456), fitd reports '$scale', expected '1.5 xsettings'"
[ "$ui_font" = "Noto Sans 12 (xsettings)" ] || fail "with xsettingsd (Gtk/FontName \"Noto Sans 12\"), fitd's UI font is '$ui_font'"
ok "with an XSETTINGS manager: scale $scale, UI font $ui_font, read under the unit"
