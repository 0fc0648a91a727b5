#!/usr/bin/env bash
# Every suite, after `npm run build`: native (GoogleTest via CTest), wasm (Node's test runner on
# the same artifact the web app loads), web unit tests (state table, i18n, exports, worker protocol),
# end-to-end (headless Chromium on the built site).
# Test files run side by side, one per core: Node's runner would otherwise use one fewer than the
# cores (none side by side on a 2-core machine). No test asserts a duration, so sharing the cores
# changes no result. The end-to-end files run through scripts/run-e2e.mjs: the longest first, at
# most four Chromiums at once (each takes a few hundred MB).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
echo "== native (GoogleTest) =="
ctest --test-dir build/native --output-on-failure -j"$jobs"
echo "== wasm (node --test) =="
node --test --test-concurrency="$jobs" tests/wasm/
# The FMA builds (relaxed SIMD, which Node 20 runs behind a flag; docs/build.md): the PyTorch
# references and the determinism tests, each build against its references and itself, not the whole
# suite twice (gpt-session: the GPT's own build, bit for bit the full core's, which gpt.test.mjs
# holds to PyTorch). tests/wasm/fma.test.mjs (above) proves the choice and the fallback.
echo "== wasm, FMA builds (node --experimental-wasm-relaxed-simd --test) =="
node --experimental-wasm-relaxed-simd --test --test-concurrency="$jobs" tests/wasm/reference.test.mjs \
  tests/wasm/seq2seq-reference.test.mjs tests/wasm/transformer-reference.test.mjs tests/wasm/gpt.test.mjs \
  tests/wasm/gpt-session.test.mjs tests/wasm/determinism.test.mjs tests/wasm/kernels.test.mjs
echo "== command line (node --test) =="
node --test --test-concurrency="$jobs" tests/cli/
echo "== web units (node --test, TypeScript via Vite's SSR loader) =="
node --test --test-concurrency="$jobs" tests/web/
echo "== end-to-end (Chromium) =="
node scripts/run-e2e.mjs
