#!/usr/bin/env bash
# What a newcomer does, checked step by step: a fresh clone with no ../shared beside it,
# `npm install`, `git status` clean, `npm test`, the package packed and installed with zod into
# an empty project, `planloop ask` with a TypeScript tools file against a local scripted
# server, and `planloop runs list` showing the run. Fails as soon as a step does; prints how
# long each took. It clones what is committed (HEAD), as a newcomer gets it. Used by .ci/run on
# Node 20 and on Node 24; developers run it as it is:
#
#   scripts/fresh-clone.sh [--node <node binary>] [--reports <dir>] [--shared <dir>] [--stress]
#                          [--ai-sdk <dir with node_modules/ai>] [--then-node <node binary>]
#
# --reports   where vitest writes its JSON reports (with CI=true), one per suite run
# --shared    after npm test, run the tests that read ../shared once more, with this folder
# --stress    also run npm run test:stress
# --ai-sdk    also run the AI SDK tests against the `ai` installed in that folder
# --then-node at the end, rebuild the native addons for that Node and run the suite on it, but for
#             the files that start many processes against real time (crash tests, shared limits,
#             BullMQ, the packed package), which the clones on Node 20 and 24 run
# --suite-only  run the vitest suite where the newcomer runs npm test (the typecheck, lint and
#             format it adds read no Node-specific behaviour: a clone on another Node ran them)
# --mcp-conformance  with --then-node: the MCP conformance suite (the file given: its dist/index.js,
#             run on that Node) against planloop serve's /mcp and planloop mcp
set -euo pipefail

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
node_bin="$(command -v node)"
reports="" shared="" stress=0 ai_sdk="" then_node="" conformance="" suite_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --node) node_bin="$2"; shift 2 ;;
    --reports) reports="$2"; shift 2 ;;
    --shared) shared="$2"; shift 2 ;;
    --stress) stress=1; shift ;;
    --suite-only) suite_only=1; shift ;;
    --ai-sdk) ai_sdk="$2"; shift 2 ;;
    --then-node) then_node="$2"; shift 2 ;;
    --mcp-conformance) conformance="$2"; shift 2 ;;
    *) echo "fresh-clone: unknown option $1" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/planloop-fresh-XXXXXX")"
trap 'rm -rf "$work"' EXIT
npm_cli="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)/bin/npm-cli.js"

# A bin folder whose node and npm are the Node asked for, first on PATH, so that every script
# npm runs (tsc, eslint, vitest, node-gyp) runs on it; native addons build against its headers.
use_node() {
  local node="$1" bin
  bin="$work/bin-node-$("$1" -p process.versions.node)"
  mkdir -p "$bin"
  ln -sf "$node" "$bin/node"
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node" "$npm_cli" > "$bin/npm"
  printf '#!/bin/sh\nexec "%s" "%s" exec -- "$@"\n' "$node" "$npm_cli" > "$bin/npx"
  chmod +x "$bin/npm" "$bin/npx"
  export PATH="$bin:$ORIGINAL_PATH"
  local root
  root="$(dirname "$(dirname "$(readlink -f "$node")")")"
  if [ -f "$root/include/node/node.h" ]; then export npm_config_nodedir="$root"; fi
}
ORIGINAL_PATH="$PATH"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
use_node "$node_bin"
version="$(node -p process.versions.node)"
major="${version%%.*}"

step_started=0
step() {
  step_started=$(date +%s)
  echo "fresh-clone (Node $version): $*"
}
took() { echo "fresh-clone (Node $version): ... $(($(date +%s) - step_started)) s"; }
report() { [ -n "$reports" ] && echo "$reports/$1.json" || echo ""; }

step "git clone (no ../shared beside it)"
git clone -q "$source_dir" "$work/planloop"
cd "$work/planloop"
[ ! -e ../shared ] || { echo "fresh-clone: ../shared is there" >&2; exit 1; }
took

step "npm install"
npm install --no-audit --no-fund
took

step "git status is clean after npm install"
if [ -n "$(git status --porcelain)" ]; then
  git status --short
  git diff --stat
  echo "fresh-clone: npm install changed the clone (is package-lock.json in sync with package.json?)" >&2
  exit 1
fi
took

if [ "$suite_only" = 1 ]; then
  step "the suite (vitest run; npm test's typecheck, lint and format ran in another clone)"
  VITEST_REPORT="$(report "node$major")" npx vitest run
else
  step "npm test"
  VITEST_REPORT="$(report "node$major")" npm test
fi
took

if [ -n "$shared" ] && [ -d "$shared" ]; then
  step "the tests that read ../shared, with $shared"
  files=$(grep -rl --include='*.test.ts' "helpers/shared-data.js" test src 2>/dev/null || true)
  PLANLOOP_SHARED_DIR="$shared" PLANLOOP_REQUIRE_SHARED=1 VITEST_REPORT="$(report "node$major-shared")" npx vitest run $files
  took
fi

if [ "$stress" = 1 ]; then
  step "npm run test:stress"
  VITEST_REPORT="$(report "node$major-stress")" npm run test:stress
  took
fi

if [ -n "$conformance" ]; then
  step "the MCP conformance suite against planloop serve's /mcp and planloop mcp"
  node --import tsx scripts/mcp-conformance.ts --node22 "${then_node:?--mcp-conformance needs --then-node}" --suite "$conformance" \
    --report "$(report "mcp-conformance")"
  took
fi

if [ -n "$ai_sdk" ]; then
  step "the AI SDK tests against ai $(node -p "require('$ai_sdk/node_modules/ai/package.json').version")"
  PLANLOOP_AI_SDK_DIR="$ai_sdk" VITEST_REPORT="$(report "node$major-ai-sdk")" npx vitest run test/models/ai-sdk.test.ts test/models/adapter-outcomes.test.ts
  took
fi

step "npm pack, and install the tarball with zod into an empty project"
npm pack --ignore-scripts --pack-destination "$work" > /dev/null
project="$work/project"
mkdir -p "$project"
cd "$project"
echo '{ "name": "newcomer", "private": true, "type": "module" }' > package.json
zod_version="$(node -p "require('$work/planloop/node_modules/zod/package.json').version")"
npm install --no-audit --no-fund --prefer-offline "$work"/planloop-*.tgz "zod@$zod_version"
took

cat > tools.ts <<'TS'
import { z } from "zod";
import { defineTool } from "planloop";

interface Doubled {
  value: number;
}

export const tools = [
  defineTool({
    name: "double",
    description: "Doubles a number",
    input: z.object({ value: z.number() }),
    execute: ({ value }: Doubled): number => value * 2,
  }),
];
TS
server_log="$work/chat-server.log"
node "$source_dir/scripts/scripted-chat-server.mjs" > "$server_log" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do [ -s "$server_log" ] && break; sleep 0.1; done
base_url="$(head -1 "$server_log")"
ask() { npx planloop ask "What is 21 doubled?" --tools ./tools.ts --base-url "$base_url" --model scripted --strategy react "$@"; }
# Runs are kept in the default store, ./.planloop, as a user's are.
unset PLANLOOP_STORE

if [ "$(node -p 'typeof process.features.typescript === "string"')" != true ]; then
  step "planloop ask with tools.ts on a Node that cannot strip types: one line naming what to install"
  if out="$(ask 2>&1)"; then echo "$out"; echo "fresh-clone: a .ts tools file loaded with no loader" >&2; exit 1; fi
  echo "$out"
  grep -q "install tsx" <<< "$out"
  npm install --no-audit --no-fund --prefer-offline "tsx@$(node -p "require('$work/planloop/node_modules/tsx/package.json').version")"
  took
fi

if [ "$(node -p 'typeof process.getBuiltinModule?.("node:sqlite")' 2>/dev/null)" != object ]; then
  step "planloop ask with no SQLite driver: the run goes on, one line says it is not recorded"
  out="$(ask 2>&1)"
  echo "$out"
  grep -q "The answer is 42" <<< "$out"
  grep -q "this run is not recorded" <<< "$out"
  # The driver the clone built (compiling it again from source took a minute of CI's time).
  npm install --no-audit --no-fund --ignore-scripts "$work/planloop/node_modules/better-sqlite3"
  took
fi

step "planloop ask with tools.ts against a local scripted server, kept in the store"
out="$(ask 2>&1)"
echo "$out"
grep -q "The answer is 42" <<< "$out"
run_id="$(grep -oE 'run [^ ]+ \(planloop runs show' <<< "$out" | head -1 | cut -d' ' -f2)"
[ -n "$run_id" ] || { echo "fresh-clone: ask printed no run id" >&2; exit 1; }
took

step "planloop runs list shows the run"
listed="$(npx planloop runs list)"
echo "$listed"
grep -q "$run_id" <<< "$listed"
grep "$run_id" <<< "$listed" | grep -q completed
took

if [ -n "$then_node" ]; then
  use_node "$then_node"
  version="$(node -p process.versions.node)"
  major="${version%%.*}"
  cd "$work/planloop"
  step "native addons rebuilt for this Node"
  npm rebuild better-sqlite3
  took
  step "the suite (vitest run), but for the files that start many processes against real time"
  VITEST_REPORT="$(report "node$major")" npx vitest run \
    --exclude 'test/testing/crash-*.test.ts' --exclude 'test/journal/{crash-resume,exactly-once,run-ownership}.test.ts' \
    --exclude 'test/strategies/code-mode-crash.test.ts' --exclude 'test/limits/*-processes.test.ts' \
    --exclude 'test/workers/bullmq*.test.ts' --exclude 'test/package/**' --exclude 'test/cli/cli-serve.test.ts'
  took
fi
echo "fresh-clone (Node $version): every step passed"
