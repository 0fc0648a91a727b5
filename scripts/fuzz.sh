#!/usr/bin/env bash
# Runs each libFuzzer target (tests/fuzz/) for a bounded time under ASan + UBSan, starting from the
# committed seed corpus. Fails on any crash, hang (> 10 s for one input), leak or sanitizer report.
#   bash scripts/fuzz.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
# no build type: no NDEBUG (asserts stay on) and no -g beyond the line tables of LAB_FUZZ_FLAGS
CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE= -DLAB_FUZZ=ON >/dev/null
cmake --build build/fuzz -j"$(nproc)"
for target in model_file tokenizer attention_args safetensors; do
  work=build/fuzz/corpus-$target
  mkdir -p "$work"
  echo "== fuzz_$target for ${seconds}s =="
  # New inputs go to the work dir; the committed seeds stay small and read-only.
  ./build/fuzz/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" "tests/fuzz/corpus/$target" 2>&1 | grep -E "^(#|==|Done|stat::number_of_executed_units|SUMMARY)" | tail -4
  # grep eats the exit code: check the fuzzer's own status.
  test "${PIPESTATUS[0]}" -eq 0
done
echo "fuzz: no crash, hang, leak or sanitizer report"
