#!/usr/bin/env bash
# The native suite once more under AddressSanitizer + UndefinedBehaviorSanitizer (run by CI).
set -euo pipefail
cd "$(dirname "$0")/.."
LAB_SANITIZE=1 bash scripts/build-native.sh
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ./build/native-asan/native_tests --gtest_brief=1
