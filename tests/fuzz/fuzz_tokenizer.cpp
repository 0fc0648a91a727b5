// libFuzzer target: tokenizers, vocabulary files and sentence encoding on arbitrary bytes. The
// first byte picks what to exercise; the rest is the text. Bad input must be an InputError.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "seq2seq/vocab.h"
#include "tensor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const lab::Tokenizer kind = (mode & 1) ? lab::Tokenizer::kChars : lab::Tokenizer::kWords;
  try {
    if (mode & 2) {
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
