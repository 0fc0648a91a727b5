// Attribution of a Transformer's output words to its source tokens: sequence/attribution.h's two
// methods (gradient × input, integrated gradients with the zero-embedding baseline) and the same
// result, through TransformerModel's own backward pass.
//
// What is differentiated is the same as for the recurrent translators: f_t = log p(y_t | x, y_<t)
// under teacher forcing, with respect to the source token embeddings x[s] = src_embedding[src[s]]
// (S, Dm), the looked-up rows, before the model scales them by √Dm and adds the positional
// encoding. So the zero-embedding baseline of integrated gradients is a source whose tokens are
// blanked while their positions stay (the encoder sees pe[:S] alone), and completeness reads
// Σ_s a[t, s] ≈ f_t(x) − f_t(0) with f_t(0) that positions-only source. (Attributing the layer
// input x·√Dm + pe instead would credit each token with its position's encoding too.)
//
// The attention each row is compared with (Spearman's ρ) is the one translate() gives for the
// step: the rollout onto the source (transformer/decode.h), which §4 lights the source with by
// default; it is computed by the incremental decoder fed the attributed words teacher-forced.
#pragma once

#include <cstdint>
#include <vector>

#include "sequence/attribution.h"
#include "transformer/model.h"

namespace lab {

// src: source ids (1 … kTransformerMaxLen, no padding); target: the output words (T ≥ 1, <eos>
// included if it is one of them), fed back teacher-forced after <sos>. result.attention is each
// word's rollout onto the source (T, S). Throws InputError for bad ids or options.
AttributionResult attribute(TransformerModel& model, const std::vector<int32_t>& src,
                            const std::vector<int32_t>& target, const AttributionOptions& options);

}  // namespace lab
