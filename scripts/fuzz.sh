#!/usr/bin/env bash
# Runs each libFuzzer target (tests/fuzz/) for a bounded time under ASan + UBSan, starting from the
# committed seed corpus. Fails on any crash, hang (> 10 s for one input), leak or sanitizer report.
#   bash scripts/fuzz.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
# The sanitized build of scripts/test-sanitize.sh (build/sanitize: clang, ASan + UBSan, asserts on,
# the core instrumented for libFuzzer): after that script, only the four small targets compile.
targets=(model_file tokenizer attention_args safetensors)
LAB_SANITIZE=1 bash scripts/build-native.sh "${targets[@]/#/fuzz_}" >/dev/null
for target in "${targets[@]}"; do
  work=build/sanitize/corpus-$target
  mkdir -p "$work"
  echo "== fuzz_$target for ${seconds}s =="
  # New inputs go to the work dir; the committed seeds stay small and read-only.
  ./build/sanitize/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" "tests/fuzz/corpus/$target" 2>&1 | grep -E "^(#|==|Done|stat::number_of_executed_units|SUMMARY)" | tail -4
  # grep eats the exit code: check the fuzzer's own status.
  test "${PIPESTATUS[0]}" -eq 0
done
echo "fuzz: no crash, hang, leak or sanitizer report"
