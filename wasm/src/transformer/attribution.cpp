// The Transformer's attribution (attribution.h): the source-embedding gradient of TransformerModel
// (its forward from given token embeddings, then its own backward), and the rollout of the
// attributed words. The scores themselves are sequence/attribution.cpp's.
#include "transformer/attribution.h"

#include <cmath>
#include <string>

#include "ops.h"
#include "tensor.h"
#include "transformer/decode.h"
#include "transformer/workspace.h"

namespace lab {

std::vector<float> TransformerModel::source_embeddings(const std::vector<int32_t>& src) const {
  const long S = static_cast<long>(src.size()), Dm = config_.d_model;
  for (long s = 0; s < S; ++s) {
    if (src[s] <= kPadId || src[s] >= config_.src_vocab) {
      throw InputError("source id " + std::to_string(src[s]) + " at position " + std::to_string(s) +
                       " is outside the source vocabulary of " + std::to_string(config_.src_vocab) +
                       " (or <pad>)");
    }
  }
  std::vector<float> out(static_cast<size_t>(S * Dm));  // (S, Dm)
  embedding_forward(out.data(), src.data(), p(off_.src_emb), S, config_.src_vocab, Dm);
  return out;
}

SourceEmbeddingGradient TransformerModel::source_embedding_gradient(
    const Batch& batch, const std::vector<float>& src_emb) {
  validate_batch(batch, config_);
  const long B = batch.B, S = batch.S, Dm = config_.d_model;
  if (static_cast<long>(src_emb.size()) != B * S * Dm) {
    throw InputError("source embeddings: " + std::to_string(src_emb.size()) +
                     " values, expected B·S·Dm = " + std::to_string(B * S * Dm));
  }
  const GradientsKeptAside training_grads(grads_, grads_valid_);

  forward_begin(batch);
  TransformerWorkspace& w = *ws_;
  // x = src_emb · √Dm + pe[:S]   (embed_forward's formula, on the given rows)
  const float scale = std::sqrt(static_cast<float>(Dm));
  for (long b = 0; b < B; ++b) {
    MapR(w.src_x.data() + b * S * Dm, S, Dm) =
        CMapR(src_emb.data() + b * S * Dm, S, Dm) * scale + CMapR(pe_.data(), S, Dm);
  }
  forward_from_source(batch);
  SourceEmbeddingGradient out;
  out.loss = w.loss;
  check_loss_finite(out.loss);
  backward(batch);
  out.logits = w.logits;
  // ∂L/∂src_emb = √Dm · ∂L/∂x; backward leaves ∂L/∂x in dsrc_a   (B, S, Dm)
  out.grad.resize(static_cast<size_t>(B * S * Dm));
  for (long i = 0; i < B * S * Dm; ++i) out.grad[i] = w.dsrc_a[i] * scale;
  return out;
}

AttributionResult attribute(TransformerModel& model, const std::vector<int32_t>& src,
                            const std::vector<int32_t>& target, const AttributionOptions& options) {
  return attribute_model(
      model, src, target, options, model.config().d_model, kTransformerMaxLen, [&](const Batch&) {
        // Each word's rollout onto the source, the decoder fed <sos>, y_0 … y_{T−2} as in the
        // batch.
        std::vector<float> attention;
        TransformerDecoderState state =
            transformer_decoder_start(model, transformer_encode(model, src));
        for (size_t t = 0; t < target.size(); ++t) {
          const int32_t input = t == 0 ? options.sos_id : target[t - 1];
          TransformerStepResult r = transformer_decoder_step(model, state, input);
          attention.insert(attention.end(), r.trace.rollout_source.begin(),
                           r.trace.rollout_source.end());
          state = std::move(r.state);
        }
        return attention;
      });
}

}  // namespace lab
