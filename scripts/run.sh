#!/usr/bin/env bash
# Entry point of the npm scripts: makes sure the machine has what the project needs, then runs the
# given project command with Node 24.  Usage: scripts/run.sh start|test|lint|typecheck|keys|bench|eval [args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_bin="$(bash "$root/scripts/ensure-env.sh" | tail -n 1)"
export PATH="$(dirname "$node_bin"):$root/node_modules/.bin:$PATH"
cd "$root"
cmd="${1:?usage: scripts/run.sh COMMAND [args...]}"; shift
case "$cmd" in
  start) exec node deploy/local/launcher.ts "$@" ;;
  test)
    # Type errors fail the suite too: the code runs by type stripping, which checks nothing.
    node node_modules/typescript/bin/tsc -p tsconfig.json
    # So do lint errors and unformatted files (biome.jsonc); only errors are printed here, `npm run lint` shows the warnings too.
    node_modules/.bin/biome check --diagnostic-level=error --max-diagnostics=50 .
    exec node node_modules/vitest/vitest.mjs run "$@" ;;
  lint) exec node_modules/.bin/biome lint "$@" ;;
  typecheck) exec node node_modules/typescript/bin/tsc -p tsconfig.json "$@" ;;
  keys)  exec node services/edge/src/keys-cli.ts "$@" ;;
  bench) exec node test/bench/run.ts "$@" ;;
  eval)  exec node test/eval/run.ts "$@" ;;
  *) echo "unknown command: $cmd" >&2; exit 2 ;;
esac
