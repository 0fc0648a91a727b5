#!/usr/bin/env bash
# Builds the wasm modules, loaded by wasm/js/attention-lab.mjs: build/wasm/attention_lab_core.{mjs,wasm}
# (everything), build/wasm/attention_lab_attention.{mjs,wasm} (attention only: no ops, no Seq2Seq, for
# loadAttentionLab({ variant: 'attention' }): a fraction of the download) and
# build/wasm/attention_lab_seq2seq.{mjs,wasm} (attention + Seq2Seq training and decoding, no model
# files: variant 'seq2seq', for the training widgets) and build/wasm/attention_lab_transformer.{mjs,wasm}
# (the Transformer translator, no model files: variant 'transformer', for <transformer-demo>),
# build/wasm/attention_lab_gpt.{mjs,wasm} (the GPT session alone: variant 'gpt'), and
# of the core, Transformer and GPT modules an _fma build with relaxed SIMD's fused multiply-add, which
# the loader picks where the engine has it (docs/build.md, "The FMA build"; needs clang-16 and the
# npm binaryen package).
# The -D flags and NODE_PATH (most of them work around Debian's emcc 3.1.6): why each one, in
# docs/build.md, "The configure step".
set -euo pipefail
cd "$(dirname "$0")/.."
# Not node_modules/.bin, which npm puts first on PATH: it holds the npm binaryen's wasm-opt and
# wasm-metadce (for the FMA builds, called by their path), and emcc runs binaryen's tools from PATH.
# Binaryen 132 writes the import map emcc reads back in another form, so the glue kept names the
# .wasm had minified: "Import #0 module="a" function="a" … requires a callable" (docs/build.md).
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | paste -sd:)
emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node \
  -DEigen3_DIR=/usr/share/eigen3/cmake \
  -Dnlohmann_json_DIR=/usr/share/cmake/nlohmann_json \
  "-DCMAKE_CXX_LINKER_LAUNCHER=cmake;-E;env;NODE_PATH=/usr/share/nodejs" \
  "-DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/scripts/em++-replay.py" >/dev/null
cmake --build build/wasm-cmake -j"$(nproc)"
mkdir -p build/wasm
for module in attention_lab_core attention_lab_attention attention_lab_seq2seq attention_lab_transformer \
  attention_lab_gpt attention_lab_core_fma attention_lab_transformer_fma attention_lab_gpt_fma; do
  cp "build/wasm-cmake/$module.mjs" "build/wasm-cmake/$module.wasm" build/wasm/
  echo "wasm: build/wasm/$module.mjs ($(wc -c <"build/wasm/$module.wasm") bytes of wasm," \
    "$(gzip -9c "build/wasm/$module.wasm" | wc -c) gzipped)"
done
