#!/usr/bin/env bash
# Makes this machine able to run the project, installing only what is missing:
#   - Node 24 LTS (from the npm registry package `node@24`, into .tools/, when the Node found is older)
#   - npm dependencies (when node_modules is missing or older than package-lock.json)
#   - Debian's chromium and nats-server (when absent and running as root; else says what to install)
# Prints nothing but progress on stderr; on success the last line on stdout is the path of the node to use.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
log() { printf '[setup] %s\n' "$*" >&2; }
want_major=24

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

node_bin=""
if command -v node >/dev/null 2>&1 && [ "$(node_major node)" -ge "$want_major" ]; then
  node_bin="$(command -v node)"
elif [ -x .tools/node/bin/node ] && [ "$(node_major .tools/node/bin/node)" -ge "$want_major" ]; then
  node_bin="$root/.tools/node/bin/node"
else
  log "Node $(node --version 2>/dev/null || echo 'none') found; installing Node ${want_major} LTS into .tools/ from the npm registry"
  command -v npm >/dev/null 2>&1 || { log "npm is needed to install Node ${want_major}: install nodejs and npm first"; exit 1; }
  rm -rf .tools/node .tools/pkg
  mkdir -p .tools/pkg
  npm install --silent --no-save --no-audit --no-fund --prefix .tools/pkg "node@${want_major}" >&2
  bin="$(find "$root/.tools/pkg/node_modules" -path '*/node-linux-*/bin/node' -type f | head -n 1)"
  [ -n "$bin" ] || bin="$root/.tools/pkg/node_modules/node/bin/node"
  mkdir -p .tools/node/bin
  ln -sf "$bin" .tools/node/bin/node
  node_bin="$root/.tools/node/bin/node"
  [ "$(node_major "$node_bin")" -ge "$want_major" ] || { log "could not install Node ${want_major}"; exit 1; }
fi
export PATH="$(dirname "$node_bin"):$PATH"

apt_missing=()
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || apt_missing+=(nats-server)
[ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null 2>&1 || apt_missing+=(chromium)
if [ ${#apt_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing Debian packages: ${apt_missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq "${apt_missing[@]}" >&2
  else
    log "missing: ${apt_missing[*]}. Install them (Debian: sudo apt-get install -y ${apt_missing[*]}), or set CHROMIUM_PATH / NATS_URL."
    exit 1
  fi
fi

stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  log "installing npm dependencies"
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund >&2; else npm install --no-audit --no-fund >&2; fi
  touch "$stamp"
fi
echo "$node_bin"
