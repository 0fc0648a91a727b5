#!/usr/bin/env bash
# Runs each libFuzzer target (tests/fuzz/) for a bounded time, or a bounded number of inputs, under
# ASan + UBSan, starting from the committed seed corpus. Fails on any crash, hang (> 10 s for one
# input), leak or sanitizer report. One target per core at a time (each fuzzer is one
# single-threaded process).
#   bash scripts/fuzz.sh [seconds per target, default 60]
#   bash scripts/fuzz.sh --inputs N    N inputs a target, however long that takes (at most 15 min):
#                                      the same work at any priority or load (CI runs it niced,
#                                      in the cycles its other stages leave idle)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --inputs ]]; then
  bound=(-runs="${2:?--inputs needs a count}" -max_total_time=900)
  what="${2} inputs"
else
  bound=(-max_total_time="${1:-60}")
  what="${1:-60}s"
fi
# The sanitized build of scripts/test-sanitize.sh (build/sanitize: clang, ASan + UBSan, asserts on,
# the core instrumented for libFuzzer): after that script, only the four small targets compile.
targets=(model_file tokenizer attention_args safetensors)
LAB_SANITIZE=1 bash scripts/build-native.sh "${targets[@]/#/fuzz_}" >/dev/null

fuzz() {  # one target; its last lines of statistics go to build/sanitize/fuzz-<target>.log
  local target=$1 work=build/sanitize/corpus-$1
  mkdir -p "$work"
  # New inputs go to the work dir; the committed seeds stay small and read-only.
  ./build/sanitize/fuzz_$target "${bound[@]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" "tests/fuzz/corpus/$target" >"build/sanitize/fuzz-$target.full.log" 2>&1
}

status=0
jobs=$(nproc)
for ((first = 0; first < ${#targets[@]}; first += jobs)); do
  batch=("${targets[@]:first:jobs}")
  pids=()
  for target in "${batch[@]}"; do
    fuzz "$target" &
    pids+=($!)
  done
  for i in "${!batch[@]}"; do
    target=${batch[$i]}
    ok=1
    wait "${pids[$i]}" || ok=0
    echo "== fuzz_$target, ${what} =="
    if ((ok)); then
      grep -E "^(#|==|Done|stat::number_of_executed_units|SUMMARY)" "build/sanitize/fuzz-$target.full.log" | tail -4
    else
      status=1
      tail -60 "build/sanitize/fuzz-$target.full.log"
    fi
  done
done
if ((status)); then
  echo "fuzz: a target failed (its report is above)"
  exit 1
fi
echo "fuzz: no crash, hang, leak or sanitizer report"
