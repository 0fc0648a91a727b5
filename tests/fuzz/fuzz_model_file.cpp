// libFuzzer target: the model-file reader must reject any byte string with an InputError, never
// crash, hang, leak or hit undefined behaviour (built with ASan + UBSan, see CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "sequence/model_file.h"
#include "tensor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    lab::ModelFileContents contents = lab::read_model_file(data, size);
    // A file that parses must be self-consistent: every array is readable.
    for (const auto& a : contents.arrays) {
      volatile float sink = 0;
      for (float v : a.tensor.data) sink = sink + v;
    }
  } catch (const lab::InputError&) {
  }
  return 0;
}
