// libFuzzer target: the attention layer's argument validation. The bytes choose shapes (small,
// possibly zero or mismatched), the score, the mask and the values (any float bit pattern: NaN,
// Inf, huge). Valid arguments must give finite weights that sum to 1 per row; invalid ones an
// InputError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "attention/attention.h"

namespace {

struct Reader {
  const uint8_t* p;
  size_t n;
  uint8_t byte() { return n ? (--n, *p++) : 0; }
  float value() {
    if (n < 4) return 0.5f;
    float f;
    std::memcpy(&f, p, 4);
    p += 4, n -= 4;
    return f;
  }
};

lab::Tensor tensor(Reader& r, std::vector<long> shape) {
  lab::Tensor t(std::move(shape));
  for (float& v : t.data) v = r.value();
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  const long B = r.byte() % 3, N = r.byte() % 5, M = r.byte() % 5, D = r.byte() % 5,
             Dk = r.byte() % 5, Dv = r.byte() % 4, A = r.byte() % 4;
  const uint8_t flags = r.byte();
  lab::AttentionInputs in;
  in.query = tensor(r, {B, N, D});
  in.key = tensor(r, {(flags & 0x80) ? B + 1 : B, M, Dk});
  in.value = tensor(r, {B, (flags & 0x40) ? M + 1 : M, Dv});
  lab::AttentionConfig cfg;
  cfg.score = static_cast<lab::Score>(flags % 5);
  cfg.temperature = (flags & 0x20) ? r.value() : 1.0f;
  cfg.mask.causal = flags & 0x10;
  if (flags & 0x08) cfg.mask.key_padding = tensor(r, {B, M});
  if (cfg.score == lab::Score::kGeneral) in.params.w = tensor(r, {D, Dk});
  if (cfg.score == lab::Score::kAdditive) {
    in.params.w1 = tensor(r, {A, D});
    in.params.w2 = tensor(r, {A, Dk});
    in.params.b = tensor(r, {A});
    in.params.v = tensor(r, {A});
  }
  try {
    lab::AttentionForward f = lab::attention_forward(in, cfg);
    for (long row = 0; row < B * N; ++row) {
      double sum = 0;
      for (long m = 0; m < M; ++m) {
        float w = f.weights.data[row * M + m];
        if (!std::isfinite(w)) __builtin_trap();
        sum += w;
      }
      if (std::fabs(sum - 1.0) > 1e-4) __builtin_trap();
    }
    lab::Tensor dout(f.output.shape, 1.0f);
    lab::AttentionGradTensors g(in, cfg.score);
    lab::AttentionWorkspace ws;
    lab::attention_backward(g.views(), ws, in, cfg, f, dout);
  } catch (const lab::InputError&) {
  }
  return 0;
}
