#!/usr/bin/env bash
# Browser tests of `qipu view`: headless Chromium (Debian's /usr/bin/chromium)
# driven by playwright-core. Skips with a message when Chromium or Node is
# missing, unless QIPU_REQUIRE_ALL=1 (CI), which makes that a failure.
set -euo pipefail
cd "$(dirname "$0")"
chromium="${CHROMIUM:-/usr/bin/chromium}"
missing=""
command -v node >/dev/null || missing="node"
[ -x "$chromium" ] || missing="${missing:+$missing, }chromium ($chromium)"
if [ -n "$missing" ]; then
  if [ "${QIPU_REQUIRE_ALL:-}" = 1 ]; then
    echo "browser tests: missing $missing" >&2
    exit 1
  fi
  echo "SKIPPED browser tests: missing $missing (apt-get install chromium; Node 20)"
  exit 0
fi
(cd ../.. && cargo build --quiet --bin qipu)
# The static viewer (the page with the viewer's session as WebAssembly),
# which both.test.mjs serves with a plain file server: it needs the wasm32
# target and the wasm-bindgen CLI of Cargo.lock (.ci/run installs both).
if command -v wasm-bindgen >/dev/null && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  node ../../crates/sgf-web/static/build.mjs
elif [ "${QIPU_REQUIRE_ALL:-}" = 1 ]; then
  echo "browser tests: the static viewer needs wasm-bindgen-cli and the wasm32-unknown-unknown target" >&2
  exit 1
else
  echo "SKIPPED the static viewer's build: no wasm-bindgen or wasm32 target (both.test.mjs skips it)"
fi
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/typescript ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
# The page's modules type-check from their JSDoc (`// @ts-check`).
echo "tsc: type-checking crates/sgf-web/assets/*.js and static/*.js"
node_modules/.bin/tsc -p tsconfig.json
node --test --test-reporter=spec
