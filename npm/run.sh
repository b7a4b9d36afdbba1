#!/usr/bin/env bash
# The npm package's tests: builds the package from the Rust sources
# (`npm run build`: the wasm32 target and wasm-bindgen-cli of Cargo.lock's
# version are needed), installs the dev dependency (TypeScript, which
# checks qipu.d.ts) and runs `npm test` (node --test). Skips with a
# message when a tool is missing, unless QIPU_REQUIRE_ALL=1 (CI), which
# makes that a failure.
set -euo pipefail
cd "$(dirname "$0")"
want=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' ../Cargo.lock)
missing=""
command -v node >/dev/null || missing="node"
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  missing="${missing:+$missing, }the wasm32 target (rustup target add wasm32-unknown-unknown)"
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $want" ]; then
  missing="${missing:+$missing, }wasm-bindgen $want (cargo install wasm-bindgen-cli --version $want)"
fi
if [ -n "$missing" ]; then
  if [ "${QIPU_REQUIRE_ALL:-}" = 1 ]; then
    echo "npm package tests: missing $missing" >&2
    exit 1
  fi
  echo "SKIPPED npm package tests: missing $missing"
  exit 0
fi
npm run --silent build
# The dev dependency, TypeScript, for the test of the package's types.
npm ci --silent --no-audit --no-fund
# The `qipu` command the package is compared with (the debug build, as the
# browser tests use).
(cd .. && cargo build --quiet --bin qipu)
QIPU_BIN="$(cd .. && pwd)/target/debug/qipu" npm test
