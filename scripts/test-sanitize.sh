#!/usr/bin/env bash
# The native suite once more under AddressSanitizer + UndefinedBehaviorSanitizer (run by CI).
# Without the convergence tests: Seq2SeqConvergence.*, the Transformer's two runs that learn to
# reverse strings (1000 steps each, for both norm placements), GrammarTraining.* (300 steps), the
# note's recipe on its five pairs for three seeds and the small GPT that learns the Tang poems:
# minutes of training at -O1 under ASan (the last two alone 28 of the remaining 86 s of one core)
# that exercise no code the other tests do not (every layer's forward, backward and Adam step, the
# sessions, decoding). The Release suite runs them.
# The suite runs in one GoogleTest shard per core, side by side; each shard's output is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
LAB_SANITIZE=1 bash scripts/build-native.sh
convergence='Seq2SeqConvergence.*:TransformerSession.LearnsToReverseUnseenStrings'
convergence+=':TransformerTraining.LearnsToReverseAndDecodesUnseenStrings:GrammarTraining.*'
convergence+=':Seq2SeqNoteRecipe.TranslatesAllFivePairsForThreeSeeds:GptCorpus.ASmallGptLearnsTheTangPoems'
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
shards=$(nproc)
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i ./build/sanitize/native_tests --gtest_brief=1 \
    --gtest_filter="-$convergence" >"build/sanitize/shard-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[$i]}" || status=1
  echo "== sanitized shard $((i + 1)) of $shards =="
  cat "build/sanitize/shard-$i.log"
done
exit $status
