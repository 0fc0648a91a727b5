#!/usr/bin/env bash
# Native build of the core and its GoogleTest suite (build/native; bench/ builds the benchmark apart).
#   LAB_SANITIZE=1 builds the suite with AddressSanitizer + UndefinedBehaviorSanitizer, with
#   clang, in build/sanitize (no build type: no NDEBUG, so Eigen's own asserts stay on; the
#   sanitizer flags, -O1 and line tables, come from CMakeLists.txt). scripts/fuzz.sh builds its
#   libFuzzer targets in the same tree, on the same compiled core.
#   Arguments name the targets to build (default: all but bench_native, which bench/ builds in
#   build/native-bench; native_tests under LAB_SANITIZE=1).
# Release (-O3 -DNDEBUG): the training tests and the benchmark need the optimised core (why each
# native flag is there: the comments beside them in CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/native
flags=(-DCMAKE_BUILD_TYPE=Release)
targets=()
for target in "$@"; do targets+=(--target "$target"); done
if [[ ${LAB_SANITIZE:-0} == 1 ]]; then
  dir=build/sanitize
  flags=(-DCMAKE_BUILD_TYPE= -DLAB_SANITIZE=ON -DCMAKE_CXX_COMPILER=clang++)
  [[ $# -gt 0 ]] || targets=(--target native_tests)
fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
