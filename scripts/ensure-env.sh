#!/usr/bin/env bash
# Makes this machine able to run the project, installing only what is missing:
#   - Node 24 LTS (from the npm registry package `node@24`, into .tools/, when the Node found is older)
#   - npm dependencies (when node_modules is missing or older than package-lock.json)
#   - Debian's chromium and its headless shell (without recommended packages, plus the fonts pages
#     need) and nats-server, when absent and running as root; else says what to install
# Quiet: one line per step that does something, on stderr; what apt and npm print goes to
# .data/logs/setup.log (its last lines are shown when a step fails). Nothing to do, nothing printed.
# On success the last line on stdout is the path of the node to use.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mkdir -p .data/logs
setup_log="$root/.data/logs/setup.log"
log() { printf '[setup] %s\n' "$*" >&2; }
want_major=24
# Chromium draws text with fontconfig's fonts. fonts-liberation: metric-compatible Arial/Helvetica,
# Times New Roman and Courier New (what pages name most; Debian's chromium only recommends it);
# fonts-dejavu-core: the default serif/sans/mono, with Greek, Cyrillic, Hebrew and Arabic.
# chromium-headless-shell: the renderer's browser (services/renderer/README.md, "Headless shell");
# the full chromium stays as its fallback.
chromium_packages=(chromium chromium-headless-shell fonts-liberation fonts-dejavu-core)

# step "what is done" command...: runs the command with its output in the log; one line on screen.
step() {
  local what="$1" started rc=0
  shift
  started=$(date +%s)
  printf '\n==== %s: %s\n' "$(date -u +%FT%TZ)" "$what" >>"$setup_log"
  "$@" >>"$setup_log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    log "$what: failed (exit $rc); the end of $setup_log:"
    tail -n 20 "$setup_log" | sed 's/^/    /' >&2
    exit "$rc"
  fi
  log "$what: done in $(( $(date +%s) - started )) s"
}

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# Chained with &&: inside `step` (an `||` context) errexit does not apply.
install_node() {
  local bin
  rm -rf .tools/node .tools/pkg && mkdir -p .tools/pkg &&
    npm install --no-save --no-audit --no-fund --prefix .tools/pkg "node@${want_major}" &&
    bin="$(find "$root/.tools/pkg/node_modules" -path '*/node-linux-*/bin/node' -type f | head -n 1)" &&
    { [ -n "$bin" ] || bin="$root/.tools/pkg/node_modules/node/bin/node"; } &&
    mkdir -p .tools/node/bin && ln -sf "$bin" .tools/node/bin/node
}

node_bin=""
if command -v node >/dev/null 2>&1 && [ "$(node_major node)" -ge "$want_major" ]; then
  node_bin="$(command -v node)"
elif [ -x .tools/node/bin/node ] && [ "$(node_major .tools/node/bin/node)" -ge "$want_major" ]; then
  node_bin="$root/.tools/node/bin/node"
else
  command -v npm >/dev/null 2>&1 || { log "Node ${want_major} is needed and npm to install it: install nodejs and npm first"; exit 1; }
  step "Node $(node --version 2>/dev/null || echo 'none') found; installing Node ${want_major} LTS into .tools/ from the npm registry" install_node
  node_bin="$root/.tools/node/bin/node"
  [ "$(node_major "$node_bin")" -ge "$want_major" ] || { log "could not install Node ${want_major} (see $setup_log)"; exit 1; }
fi
export PATH="$(dirname "$node_bin"):$PATH"

apt_missing=()
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || apt_missing+=(nats-server)
if [ -z "${CHROMIUM_PATH:-}" ]; then
  if ! command -v chromium >/dev/null 2>&1; then
    apt_missing+=("${chromium_packages[@]}")
  elif command -v dpkg-query >/dev/null 2>&1; then
    # Chromium is there: make sure its headless shell and the fonts are too (an earlier install).
    for pkg in "${chromium_packages[@]:1}"; do
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || apt_missing+=("$pkg")
    done
  fi
fi
if [ ${#apt_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    step "updating Debian's package lists" apt-get update
    step "installing Debian packages: ${apt_missing[*]}" apt-get install -y --no-install-recommends "${apt_missing[@]}"
  else
    log "missing: ${apt_missing[*]}. Install them (Debian: sudo apt-get install -y --no-install-recommends ${apt_missing[*]}), or set CHROMIUM_PATH / NATS_URL."
    exit 1
  fi
fi

stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  if [ -f package-lock.json ]; then step "installing npm dependencies (npm ci)" npm ci --no-audit --no-fund
  else step "installing npm dependencies (npm install)" npm install --no-audit --no-fund; fi
  touch "$stamp"
fi
echo "$node_bin"
