#!/usr/bin/env bash
# Every suite, after `npm run build`: native (GoogleTest via CTest), wasm (Node's test runner on
# the same artifact the web app loads), end-to-end (headless Chromium on the built site).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== native (GoogleTest) =="
ctest --test-dir build/native --output-on-failure -j"$(nproc)"
echo "== wasm (node --test) =="
node --test tests/wasm/
echo "== command line (node --test) =="
node --test tests/cli/
echo "== end-to-end (Chromium) =="
node --test tests/e2e/
