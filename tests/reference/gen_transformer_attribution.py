"""Reference data for the Transformer's attribution (wasm/src/transformer/attribution.h): gradient x input and
integrated gradients of each output word's log-probability with respect to the source token embeddings, by
PyTorch autograd, and each word's attention rollout onto the source.

Run from the repository root with Debian's PyTorch (the pyenv `python3` on PATH has no torch):

    OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 tests/reference/gen_transformer_attribution.py

The variable picks OpenBLAS's Skylake-X (AVX-512) kernels, with which the committed file is reproduced byte for
byte (checked on an AMD EPYC with AVX-512); other kernels (OpenBLAS's default choice on that CPU, Debian's
reference BLAS) move the last bits of some float64 values, far inside the tests' tolerances.

It writes shared/reference/transformer_attribution.json (committed; byte-identical from run to run: fixed seed
per case, one thread). The model is gen_transformer.py's TransformerSeq2Seq (the same modules and state-dict
names, its weights perturbed the same way), run on one sentence (no padding) with the source token embeddings
e (S, Dm) given directly in place of src_embedding(src), before the sqrt(d_model) scaling and the positional
encoding:

    x = e * sqrt(d_model) + pe[:S]

teacher-forced on the target y (T words, <eos> last) after <sos>. For output word t, f_t = log softmax(logits[t])
[y_t] (the recurrent translators' definition, gen_attribution.py); gradient x input and integrated gradients
(attribution_methods.py, shared with gen_attribution.py) of f_t with respect to e, with the zero-embedding
baseline (the source's tokens blanked, their positions kept), f_t(e) and f_t(0). "attention" (T, S) is each
word's attention rollout onto the source (Abnar & Zuidema 2020, as docs/transformer.md defines it for the
decoder: A_hat = 0.5 mean_h A + 0.5 I per attention, the cross-attention sending half of each row through the
encoder's rollout), computed here in matrix form from the teacher-forced per-head weights; "rank_correlation" is
Spearman's rho between each attention row and each attribution row. Weights are drawn in float32
(torch.manual_seed(3100 + case index)) and stored exactly; the rest is computed in float64 from them.

The file's layout: attribution_methods.py.
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attribution_methods import IG_STEPS, S, T, attribution_fields, write_cases  # noqa: E402
from gen_transformer import _RECORD, D_FF, D_MODEL, TransformerSeq2Seq, enc, perturb  # noqa: E402
from transformer_module import positional_table  # noqa: E402


def log_probs(model, e, tgt_in, y):
    """f (T,): log p(y_t | e, y_<t) with the source token embeddings e (S, Dm) given."""
    d = model.d_model
    pe = positional_table(max(S, T), d)
    x = e * math.sqrt(d) + pe[:S]
    yy = model.tgt_embedding(tgt_in) * math.sqrt(d) + pe[:T]
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    h = model.transformer(x.unsqueeze(0), yy.unsqueeze(0), tgt_mask=causal)
    logp = torch.log_softmax(model.out(h)[0], dim=-1)                             # (T, Vt)
    return logp[torch.arange(len(y)), y]


def rollout(model, e, tgt_in, y):
    """(T, S): each decoder position's rollout onto the source, from the teacher-forced per-head weights."""
    _RECORD.clear()
    with torch.no_grad():
        log_probs(model, e, tgt_in, y)
    layers = model.transformer
    enc_self = [w[0] for m, w in _RECORD if any(m is l.self_attn for l in layers.encoder.layers)]
    dec_self = [w[0] for m, w in _RECORD if any(m is l.self_attn for l in layers.decoder.layers)]
    cross = [w[0] for m, w in _RECORD if any(m is l.multihead_attn for l in layers.decoder.layers)]
    r_enc = torch.eye(S, dtype=torch.float64)
    for a in enc_self:                                                            # (H, S, S)
        r_enc = (0.5 * a.mean(0) + 0.5 * torch.eye(S, dtype=torch.float64)) @ r_enc
    # rows (T, T + S): each position's weights over the target tokens, then the source tokens
    rows = torch.cat([torch.eye(T, dtype=torch.float64), torch.zeros(T, S, dtype=torch.float64)], dim=1)
    for a_self, a_cross in zip(dec_self, cross):                                  # (H, T, T), (H, T, S)
        mixed = 0.5 * a_self.mean(0) @ rows + 0.5 * rows
        rows = 0.5 * mixed
        rows[:, T:] += 0.5 * a_cross.mean(0) @ r_enc
    return rows[:, T:]


def case(layers, heads, norm_first, vs, vt):
    model = TransformerSeq2Seq(vs, vt, D_MODEL, heads, layers, D_FF, norm_first)
    perturb(model)
    params = {k: v.detach().clone() for k, v in model.state_dict().items()}
    src = torch.randint(1, vs, (S,))
    y = torch.cat([torch.randint(3, vt, (T - 1,)), torch.tensor([2])])          # words, then <eos>
    tgt_in = torch.cat([torch.tensor([1]), y[:-1]])                               # <sos>, then y_<T-1
    model = model.double().train()  # dropout 0; training mode keeps PyTorch off its fast path
    e = model.src_embedding.weight[src].detach()                                  # (S, Dm)

    f = lambda e: log_probs(model, e, tgt_in, y)  # noqa: E731
    return {
        "name": f"{'pre' if norm_first else 'post'}_l{layers}_h{heads}",
        "config": {"layers": layers, "heads": heads, "d_model": D_MODEL, "d_ff": D_FF, "norm_first": norm_first,
                   "src_vocab": vs, "tgt_vocab": vt},
        "src": src.tolist(), "target": y.tolist(),
        "params": {k: enc(v) for k, v in params.items()},
        **attribution_fields(f, e, IG_STEPS, rollout(model, e, tgt_in, y), enc, log_prob_digits=9),
    }


# (layers, heads, norm_first, source vocabulary, target vocabulary)
CASES = [(1, 2, False, 9, 8), (2, 2, True, 8, 10), (2, 4, False, 11, 9)]


def main():
    cases = []
    for i, c in enumerate(CASES):
        torch.manual_seed(3100 + i)
        cases.append(case(*c))
    write_cases("gen_transformer_attribution", "transformer_attribution.json", cases)


if __name__ == "__main__":
    main()
