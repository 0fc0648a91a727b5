// Memory diagnostics for leak tests: bytes malloc has handed out and not had back. The ES module
// adds the size of wasm memory and embind's live handle count, which only JS can read.
#include <emscripten/bind.h>
#include <malloc.h>

namespace {

double heap_used_bytes() {
  return static_cast<double>(mallinfo().uordblks);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_diagnostics) {
  emscripten::function("heapUsedBytes", &heap_used_bytes);
}
