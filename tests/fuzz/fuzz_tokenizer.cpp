// libFuzzer target: tokenizers, vocabulary files, sentence encoding and the reader's own sentence
// pairs (task_pairs.h) on arbitrary bytes. The first byte picks what to exercise; the rest is the
// text. Bad input must be an InputError.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sequence/task_pairs.h"
#include "sequence/vocab.h"
#include "tensor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const lab::Tokenizer kind = (mode & 1) ? lab::Tokenizer::kChars : lab::Tokenizer::kWords;
  try {
    if (mode & 4) {
      // Tab-separated pairs, as pasted: every kept pair must have both sides, and the task built
      // on them (nothing held out, or a fifth) must batch its examples.
      for (const lab::PairLine& p : lab::parse_pairs(text, kind)) {
        if (p.source.empty() || p.target.empty() || p.line < 1) __builtin_trap();
      }
      lab::TaskOptions options;
      options.pairs = std::string(text);
      options.tokenize = kind;
      options.held_out_fraction = (mode & 8) ? 0.2 : 0.0;
      const auto task = lab::make_task("pairs", options);
      lab::Rng rng(mode);
      task->sample_batch(rng, 4);
      if (task->held_out().empty()) __builtin_trap();
    } else if (mode & 2) {
      // A vocabulary as a model file would carry it.
      nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) return 0;
      lab::Vocab vocab = lab::Vocab::from_json(j);
      vocab.decode_text({1, 4, 5, 2});
    } else {
      // A sentence typed by a user, against a small vocabulary.
      lab::Vocab vocab = lab::Vocab::build(kind, {"a", "b", "咖", "哥", "喜欢"});
      lab::Encoded e = vocab.encode(text);
      if (e.ids.size() != e.unknown.size()) __builtin_trap();
      vocab.decode(e.ids);
    }
  } catch (const lab::InputError&) {
  } catch (const nlohmann::json::exception&) {
    // from_json reports type errors of the JSON itself this way; they are caught by callers
  }
  return 0;
}
