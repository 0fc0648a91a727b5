// libFuzzer target: the safetensors reader and the interchange on top of it must reject any byte
// string with an InputError, never crash, hang, leak or hit undefined behaviour (built with ASan +
// UBSan, see CMakeLists.txt). A file that loads as a translator is also decoded once, so the
// metadata-to-model path (vocabularies in any order, <sos>/<eos> anywhere) is exercised too.
#include <cstddef>
#include <cstdint>

#include "io/safetensors.h"
#include "rnn/interchange.h"
#include "tensor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const lab::SafetensorsFile file = lab::read_safetensors(data, size);
    volatile float sink = 0;
    for (const auto& t : file.tensors) {
      for (float v : t.tensor.data) sink = sink + v;
    }
  } catch (const lab::InputError&) {
  }
  try {
    lab::InterchangeModel model = lab::InterchangeModel::read(data, size);
    const std::string& word = model.source_vocab().tokens().front();
    model.translate(word, {std::nullopt, 4L, std::nullopt});
    model.write();
  } catch (const lab::InputError&) {
  }
  return 0;
}
