#!/usr/bin/env bash
# Runs every test of Qipu: Rust unit, integration, snapshot and corpus tests,
# then the Python, browser and npm package suites when they exist.
# Tests that need ../shared/corpus skip with a message when it is absent
# (and fail under QIPU_REQUIRE_ALL=1, as in CI).
set -euo pipefail
cd "$(dirname "$0")"

echo "== cargo test (workspace default members)"
cargo test --quiet
# PNG text in a CJK font is behind a feature; the test needs such a font
# (Debian: fonts-wqy-microhei) and says so when there is none.
echo "== cargo test: sgf-render PNGs with the cjk-png feature"
cargo test --quiet -p sgf-render --features cjk-png --test png

if [ -x tests/python/run.sh ]; then
  echo "== python tests"
  tests/python/run.sh
fi
if [ -x tests/browser/run.sh ]; then
  echo "== browser tests"
  tests/browser/run.sh
fi
if [ -x npm/run.sh ]; then
  echo "== npm package tests (WebAssembly)"
  npm/run.sh
fi
echo "== all tests passed"
