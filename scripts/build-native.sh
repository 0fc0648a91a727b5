#!/usr/bin/env bash
# Native build of the core, its GoogleTest suite and the native benchmark (build/native).
#   LAB_SANITIZE=1 builds build/native-asan with AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/native
flags=(-DCMAKE_BUILD_TYPE=Release)
if [[ ${LAB_SANITIZE:-0} == 1 ]]; then
  dir=build/native-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DLAB_SANITIZE=ON)
fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
