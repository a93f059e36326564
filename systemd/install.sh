#!/usr/bin/env bash
# Installs qpswatch as a systemd service, or removes it. See --help and docs/operating.md.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: systemd/install.sh [--no-build] | --uninstall [--purge] | --help

Run as root from a qpswatch source folder.

  (no option)   install or upgrade: system user and group qpswatch, the program in $QPSWATCH_PREFIX
                (npm packages and the compiled TypeScript), the unit in /etc/systemd/system, and
                /etc/qpswatch/qpswatch.yaml and qpswatch.env when they do not exist yet (an existing
                config is never overwritten), the command qpswatch on PATH (a link
                /usr/local/bin/qpswatch -> $QPSWATCH_PREFIX/bin/qpswatch.js), and a udev rule that gives
                /dev/cpu_dma_latency to group qpswatch (so the service can hold the CPUs' idle states);
                then systemctl daemon-reload
  --no-build    copy the files only, without npm ci and tsc (the program folder must then be built
                by hand before the service can start: see docs/operating.md)
  --uninstall   stop and disable the service, remove the unit, the link and $QPSWATCH_PREFIX; keep the config
                (/etc/qpswatch), the results (/var/lib/qpswatch), the cache and the logs; remove the udev rule
  --purge       with --uninstall: also remove /etc/qpswatch, /var/lib/qpswatch, /var/cache/qpswatch,
                /var/log/qpswatch, local unit drop-ins and the qpswatch user and group
  --help        this text

Environment:
  QPSWATCH_PREFIX   where the program goes (default /opt/qpswatch)
  QPSWATCH_ROOT     a folder that stands for / (default /): everything is written under it, and
                    groupadd, useradd, userdel, groupdel, systemctl and udevadm are printed instead of run,
                    so packagers and tests can install without touching this machine
EOF
}

ROOT=${QPSWATCH_ROOT:-/}
PREFIX=${QPSWATCH_PREFIX:-/opt/qpswatch}
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UNIT=qpswatch.service
NAME=qpswatch
# Gives /dev/cpu_dma_latency to group qpswatch, so the service can hold the CPUs' idle states (hold_idle_states).
UDEV_RULE=90-qpswatch-cpu-dma-latency.rules
# The command on PATH: root's and the operators' shells find it without naming node or the prefix.
BIN_LINK=/usr/local/bin/qpswatch

say() { printf 'qpswatch install: %s\n' "$*"; }
fail() {
  printf 'qpswatch install: %s\n' "$*" >&2
  exit 2
}

# A path on the target system, under QPSWATCH_ROOT.
at() {
  if [ "$ROOT" = / ]; then printf '%s' "$1"; else printf '%s%s' "${ROOT%/}" "$1"; fi
}

# Commands that change this machine's users or services run only when installing into the real root.
host() {
  if [ "$ROOT" = / ]; then
    "$@"
  else
    say "would run: $*"
  fi
}

# Ownership by root needs root; in a QPSWATCH_ROOT stage made by another user it is printed instead.
own_by_root() {
  if [ "$(id -u)" -eq 0 ]; then
    chown -R 0:0 "$@"
  else
    say "not root; would run: chown -R 0:0 $*"
  fi
}

systemd_running() { [ "$ROOT" = / ] && [ -d /run/systemd/system ]; }
udev_running() { [ "$ROOT" = / ] && [ -S /run/udev/control ]; }

# udevadm only where udevd runs; otherwise say what to run (the rule applies at the next boot anyway).
udevadm_do() {
  if udev_running; then
    udevadm "$@"
  else
    say "udev is not running here; would run: udevadm $*"
  fi
}

# systemctl only where systemd runs (not in a container or chroot without it); otherwise say what to run.
systemctl_do() {
  if systemd_running; then
    systemctl "$@"
  else
    say "systemd is not running here; would run: systemctl $*"
  fi
}

check_paths() {
  case "$PREFIX" in
    /*/*|/[!/]*) ;;
    *) fail "QPSWATCH_PREFIX=$PREFIX: expected an absolute folder other than /, e.g. /opt/qpswatch" ;;
  esac
  case "$PREFIX" in
    *[!A-Za-z0-9/._-]*) fail "QPSWATCH_PREFIX=$PREFIX: use only letters, digits, /, ., _ and - (the unit's ExecStart holds it)" ;;
  esac
  case "$ROOT" in
    /*) ;;
    *) fail "QPSWATCH_ROOT=$ROOT: expected an absolute folder, e.g. / or /tmp/stage" ;;
  esac
  [ -d "$ROOT" ] || fail "QPSWATCH_ROOT=$ROOT: no such folder; create it first"
}

# The service runs node by absolute path; it must be a version package.json allows, outside home folders
# (ProtectHome=yes hides /home and /root from the service).
find_node() {
  local node major
  node=$(command -v node) || fail "node is not installed: install Node.js 20, 21 or 22 (e.g. apt-get install nodejs)"
  node=$(readlink -f "$node")
  major=$("$node" -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ] || [ "$major" -gt 22 ]; then
    fail "$node is Node.js $major: qpswatch needs 20, 21 or 22"
  fi
  case "$node" in
    /home/*|/root/*) fail "$node is in a home folder, which the service cannot see (ProtectHome=yes): install node system-wide" ;;
  esac
  printf '%s' "$node"
}

ensure_user() {
  if [ "$ROOT" = / ] && getent passwd "$NAME" >/dev/null; then
    say "user $NAME exists"
    return
  fi
  if [ "$ROOT" != / ] || ! getent group "$NAME" >/dev/null; then host groupadd --system "$NAME"; fi
  # No login shell and no home of its own: systemd makes /var/lib/qpswatch (StateDirectory=) owned by it.
  host useradd --system --gid "$NAME" --home-dir /var/lib/qpswatch --no-create-home \
    --shell /usr/sbin/nologin --comment 'qpswatch benchmark daemon' "$NAME"
}

# The program files: what runs (bin, src with its Lua scripts, config with suites and profiles) and what builds it.
copy_program() {
  local dest=$1 item
  mkdir -p "$dest"
  for item in bin src config docs systemd package.json package-lock.json tsconfig.json README.md; do
    cp -R "$SOURCE/$item" "$dest/"
  done
}

# npm ci with the dev packages (typescript compiles dist/), tsc, then npm prune drops the dev packages again.
# better-sqlite3 is native: npm downloads a prebuilt binary, or compiles it with python3, make and g++.
build_program() {
  local dest=$1
  (
    cd "$dest"
    npm ci --no-audit --no-fund --loglevel=error
    npx tsc -p .
    npm prune --omit=dev --no-audit --no-fund --loglevel=error
  )
}

# The new program is built beside the old one and swapped in, so a failed build leaves the old one working.
install_program() {
  local target staging old
  target=$(at "$PREFIX")
  staging="$target.new"
  old="$target.old"
  rm -rf "$staging" "$old"
  copy_program "$staging"
  if [ "$BUILD" = yes ]; then
    say "building in $staging (npm ci, tsc, npm prune --omit=dev)"
    build_program "$staging"
  else
    say "--no-build: not built; before starting, run in $PREFIX: npm ci && npx tsc -p . && npm prune --omit=dev"
  fi
  # Root owns the program; the service (and everyone) may read it, nobody else may change it.
  own_by_root "$staging"
  chmod -R u=rwX,go=rX "$staging"
  if [ -e "$target" ]; then mv "$target" "$old"; fi
  mv "$staging" "$target"
  rm -rf "$old"
  say "program installed in $target"
}

install_unit() {
  local node=$1 dir
  dir=$(at /etc/systemd/system)
  mkdir -p "$dir"
  # The unit names /usr/bin/node and /opt/qpswatch; this host's node and prefix replace them.
  sed -e "s#/usr/bin/node #$node #" -e "s#/opt/qpswatch/#$PREFIX/#g" "$SOURCE/systemd/$UNIT" >"$dir/$UNIT.tmp"
  chmod 0644 "$dir/$UNIT.tmp"
  mv "$dir/$UNIT.tmp" "$dir/$UNIT"
  say "unit installed in $dir/$UNIT"
}

# The rule applies to the node that exists now as soon as udev re-reads its rules and replays the device's event.
install_udev_rule() {
  local dir
  dir=$(at /etc/udev/rules.d)
  mkdir -p "$dir"
  install -m 0644 "$SOURCE/systemd/$UDEV_RULE" "$dir/$UDEV_RULE.tmp"
  own_by_root "$dir/$UDEV_RULE.tmp"
  mv "$dir/$UDEV_RULE.tmp" "$dir/$UDEV_RULE"
  say "udev rule installed in $dir/$UDEV_RULE (/dev/cpu_dma_latency: group $NAME, mode 0660)"
  apply_udev_rules
}

# Without the rule the node goes back to the kernel's root:root 0600; before groupdel, so udev never names a lost group.
remove_udev_rule() {
  local rule
  rule=$(at "/etc/udev/rules.d/$UDEV_RULE")
  [ -e "$rule" ] || return 0
  rm -f "$rule"
  say "removed $rule"
  apply_udev_rules
}

apply_udev_rules() {
  udevadm_do control --reload
  udevadm_do trigger --action=change --subsystem-match=misc --sysname-match=cpu_dma_latency
}

# The link is made, or replaced, only where there is no other file of that name.
install_link() {
  local link
  link=$(at "$BIN_LINK")
  mkdir -p "$(dirname "$link")"
  if [ -e "$link" ] && [ ! -L "$link" ]; then
    say "kept $link: it is not a link made by this script; run $PREFIX/bin/qpswatch.js by its path"
    return
  fi
  ln -sfn "$PREFIX/bin/qpswatch.js" "$link"
  say "linked $link -> $PREFIX/bin/qpswatch.js"
}

# Only a link to this prefix's program is removed; anything else of that name is someone else's.
remove_link() {
  local link
  link=$(at "$BIN_LINK")
  if [ -L "$link" ] && [ "$(readlink "$link")" = "$PREFIX/bin/qpswatch.js" ]; then
    rm -f "$link"
    say "removed $link"
  fi
}

# A person's config is never overwritten: each file is written only when absent.
install_config() {
  local dir yaml env
  dir=$(at /etc/qpswatch)
  mkdir -p "$dir"
  chmod 0755 "$dir"
  yaml="$dir/qpswatch.yaml"
  env="$dir/qpswatch.env"
  if [ -e "$yaml" ]; then
    say "kept $yaml"
  else
    # No secrets in it (qpswatch refuses them in YAML, and a remote with a token in a file all may read), so it may
    # be read by all; a config that needs a token in a remote is made 0640 root:qpswatch by hand (docs/operating.md).
    install -m 0644 "$SOURCE/systemd/qpswatch.example.yaml" "$yaml"
    own_by_root "$yaml"
    say "wrote $yaml: edit it, then check it with: sudo -u $NAME node $PREFIX/bin/qpswatch.js config check $yaml"
  fi
  if [ -e "$env" ]; then
    say "kept $env"
  else
    # systemd reads EnvironmentFile= as root before it drops to the service user: root alone reads the secrets.
    install -m 0600 "$SOURCE/systemd/qpswatch.env.example" "$env"
    own_by_root "$env"
    say "wrote $env (mode 0600, root only): put secrets such as QPSWATCH_SMTP_PASSWORD there"
  fi
}

do_install() {
  local node
  node=$(find_node)
  ensure_user
  install_program
  install_unit "$node"
  install_config
  install_link
  install_udev_rule
  systemctl_do daemon-reload
  cat <<EOF

Installed. Next:
  edit /etc/qpswatch/qpswatch.yaml (and secrets in /etc/qpswatch/qpswatch.env)
  systemctl enable --now qpswatch     start now and at every boot
  systemctl status qpswatch           is it running
  qpswatch status                     what it does and found (members of group qpswatch may read it)
  sudo -u qpswatch qpswatch host      "idleStatesHold  held": the service can hold the CPUs' idle states
  journalctl -u qpswatch -f           its log
After an upgrade of a running service: systemctl restart qpswatch
EOF
}

do_uninstall() {
  local unit_file dir
  unit_file=$(at "/etc/systemd/system/$UNIT")
  if [ -e "$unit_file" ]; then systemctl_do disable --now "$UNIT"; fi
  rm -f "$unit_file"
  remove_link
  remove_udev_rule
  rm -rf "$(at "$PREFIX")" "$(at "$PREFIX").new" "$(at "$PREFIX").old"
  say "removed the unit and $(at "$PREFIX")"
  if [ "$PURGE" = yes ]; then
    for dir in /etc/qpswatch /var/lib/qpswatch /var/cache/qpswatch /var/log/qpswatch "/etc/systemd/system/$UNIT.d"; do
      rm -rf "$(at "$dir")"
    done
    say "purged /etc/qpswatch, /var/lib/qpswatch, /var/cache/qpswatch, /var/log/qpswatch"
    if [ "$ROOT" != / ] || getent passwd "$NAME" >/dev/null; then host userdel "$NAME"; fi
    if [ "$ROOT" != / ] || getent group "$NAME" >/dev/null; then host groupdel "$NAME"; fi
  else
    say "kept /etc/qpswatch (config), /var/lib/qpswatch (results), /var/cache/qpswatch, /var/log/qpswatch and user $NAME; --uninstall --purge removes them"
  fi
  systemctl_do daemon-reload
}

ACTION=install
PURGE=no
BUILD=yes
for arg in "$@"; do
  case "$arg" in
    --help|-h) usage; exit 0 ;;
    --uninstall) ACTION=uninstall ;;
    --purge) PURGE=yes ;;
    --no-build) BUILD=no ;;
    *) usage >&2; fail "unknown option '$arg'" ;;
  esac
done
[ "$PURGE" = no ] || [ "$ACTION" = uninstall ] || fail "--purge goes with --uninstall"
[ "$BUILD" = yes ] || [ "$ACTION" = install ] || fail "--no-build goes with an install, not --uninstall"
if [ "$ROOT" = / ] && [ "$(id -u)" -ne 0 ]; then
  fail "run as root (it creates a system user and writes to /etc and $PREFIX), or set QPSWATCH_ROOT to stage elsewhere"
fi
check_paths

if [ "$ACTION" = install ]; then do_install; else do_uninstall; fi
