#!/usr/bin/env bash
# CMake compiler launcher for the kernels of the FMA modules (docs/build.md, "The FMA build"): it
# receives em++'s command line and compiles it with Debian's clang-16 instead, with the flags em++
# 3.1.6 adds for its own clang 14 and -mrelaxed-simd. emcc's clang 14 writes f32x4.relaxed_madd
# with the proposal's old opcode, which no engine accepts; clang 16 writes the final one.
set -euo pipefail
shift  # em++ itself
sysroot=/usr/share/emscripten/cache/sysroot
exec clang++-16 -target wasm32-unknown-emscripten -DEMSCRIPTEN -D__EMSCRIPTEN_major__=3 \
  -D__EMSCRIPTEN_minor__=1 -D__EMSCRIPTEN_tiny__=6 -fvisibility=default \
  -mllvm -combiner-global-alias-analysis=false -mllvm -enable-emscripten-sjlj -mllvm -disable-lsr \
  -D_LIBCPP_ABI_VERSION=2 -fno-threadsafe-statics -Dunix -D__unix -D__unix__ \
  -Werror=implicit-function-declaration --sysroot=$sysroot -Xclang -iwithsysroot/include/compat \
  "$@" -mrelaxed-simd
