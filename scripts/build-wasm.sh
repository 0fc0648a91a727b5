#!/usr/bin/env bash
# Builds the wasm module: build/wasm/attention_lab_core.{mjs,wasm}, loaded by wasm/js/attention-lab.mjs.
# The -D flags work around Debian's emcc 3.1.6 (see ../shared/TOOLCHAIN.md, gotchas 1–3).
set -euo pipefail
cd "$(dirname "$0")/.."
emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node \
  -DEigen3_DIR=/usr/share/eigen3/cmake \
  -Dnlohmann_json_DIR=/usr/share/cmake/nlohmann_json \
  "-DCMAKE_CXX_LINKER_LAUNCHER=cmake;-E;env;NODE_PATH=/usr/share/nodejs" >/dev/null
cmake --build build/wasm-cmake -j"$(nproc)"
mkdir -p build/wasm
cp build/wasm-cmake/attention_lab_core.mjs build/wasm-cmake/attention_lab_core.wasm build/wasm/
echo "wasm: build/wasm/attention_lab_core.mjs ($(wc -c <build/wasm/attention_lab_core.wasm) bytes of wasm)"
