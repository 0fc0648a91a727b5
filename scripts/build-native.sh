#!/usr/bin/env bash
# Native build of the core, its GoogleTest suite and the native benchmark (build/native).
#   LAB_SANITIZE=1 builds only the suite, in build/native-asan, with AddressSanitizer +
#   UndefinedBehaviorSanitizer (no build type: no NDEBUG, so Eigen's own asserts stay on; the
#   sanitizer flags, -O1 and line tables, come from CMakeLists.txt).
# Release (-O3 -DNDEBUG): the training tests and the benchmark need the optimised core (why each
# native flag is there: the comments beside them in CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/native
flags=(-DCMAKE_BUILD_TYPE=Release)
targets=()
if [[ ${LAB_SANITIZE:-0} == 1 ]]; then
  dir=build/native-asan
  flags=(-DCMAKE_BUILD_TYPE= -DLAB_SANITIZE=ON)
  targets=(--target native_tests)
fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
