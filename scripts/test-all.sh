#!/usr/bin/env bash
# Every suite, after `npm run build`: native (GoogleTest via CTest), wasm (Node's test runner on
# the same artifact the web app loads), web unit tests (state table, i18n, exports, worker protocol),
# end-to-end (headless Chromium on the built site).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== native (GoogleTest) =="
ctest --test-dir build/native --output-on-failure -j"$(nproc)"
echo "== wasm (node --test) =="
node --test tests/wasm/
echo "== command line (node --test) =="
node --test tests/cli/
echo "== web units (node --test, TypeScript via Vite's SSR loader) =="
node --test tests/web/
echo "== end-to-end (Chromium) =="
node --test tests/e2e/
