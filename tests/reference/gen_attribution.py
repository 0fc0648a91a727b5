"""Reference data for attribution (wasm/src/sequence/attribution.h): gradient x input and integrated gradients
of each output word's log-probability with respect to the source embeddings, by PyTorch autograd.

Run from the repository root with Debian's PyTorch (the pyenv `python3` on PATH has no torch):

    OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 tests/reference/gen_attribution.py

The variable picks OpenBLAS's Skylake-X (AVX-512) kernels, with which the committed file is reproduced byte for
byte (checked on an AMD EPYC with AVX-512); other kernels (OpenBLAS's default choice on that CPU, Debian's
reference BLAS) move the last bits of some float64 values, far inside the tests' tolerances.

It writes shared/reference/attribution.json (committed; byte-identical from run to run: fixed seed per case,
one thread). The model is gen_seq2seq.py's Seq2Seq (the same modules and state-dict names), run on one sentence
(no padding) with the source embeddings x (S, E) given directly, teacher-forced on the target y (T words, <eos>
last) after <sos>. For output word t, f_t = log softmax(logits[t])[y_t]; gradient x input and integrated
gradients (attribution_methods.py, which both attribution generators share) of f_t with respect to x, with f_t(x)
and f_t(0), the teacher-forced attention (T, S) and Spearman's rho between each attention row and each
attribution row. Weights are drawn in float32 (torch.manual_seed(3000 + case index)) and stored exactly; the
rest is computed in float64 from them.

The file's layout: attribution_methods.py.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attribution_methods import IG_STEPS, S, T, attribution_fields, write_cases  # noqa: E402
from gen_seq2seq import E, HD, VS, VT, Seq2Seq, enc  # noqa: E402


def log_probs(model, emb, tgt_in, y):
    """f (T,): log p(y_t | x, y_<t) with the source embeddings emb (S, E) given; and the attention (T, S)."""
    enc_out, state = model.encoder.rnn(emb.unsqueeze(0))                          # (1, S, Hd)
    dec_out, _ = model.decoder.rnn(model.decoder.embedding(tgt_in.unsqueeze(0)), state)
    feature, weights = dec_out, None
    if model.attention_on:
        q, k = dec_out, enc_out
        if model.score == "dot":
            scores = q @ k.transpose(1, 2)
        elif model.score == "general":
            scores = q @ (k @ model.attention.w.t()).transpose(1, 2)
        else:
            a = model.attention
            scores = torch.tanh((q @ a.w1.t()).unsqueeze(2) + (k @ a.w2.t()).unsqueeze(1) + a.b) @ a.v
        weights = torch.softmax(scores, dim=-1)
        feature = torch.cat([dec_out, weights @ enc_out], dim=-1)
        if model.tanh:
            feature = torch.tanh(model.attn_dense(feature))
    logp = torch.log_softmax(model.out(feature)[0], dim=-1)                    # (T, Vt)
    return logp[torch.arange(len(y)), y], (weights[0] if weights is not None else None)


def case(cell, variant):
    attention = variant != "plain"
    score = {"plain": "dot", "dot": "dot", "general_tanh": "general", "additive_tanh": "additive"}[variant]
    tanh = variant.endswith("_tanh")
    model = Seq2Seq(cell, attention, score, tanh)
    params = {k: v.detach().clone() for k, v in model.state_dict().items()}
    src = torch.randint(1, VS, (S,))
    y = torch.cat([torch.randint(3, VT, (T - 1,)), torch.tensor([2])])          # words, then <eos>
    tgt_in = torch.cat([torch.tensor([1]), y[:-1]])                               # <sos>, then y_<T-1
    model = model.double()
    x = model.encoder.embedding.weight[src].detach()                              # (S, E)

    f = lambda x: log_probs(model, x, tgt_in, y)[0]  # noqa: E731
    weights = log_probs(model, x, tgt_in, y)[1]
    return {
        "name": f"{cell}_{variant}",
        "config": {"cell": cell, "hidden": HD, "embedding": E, "src_vocab": VS, "tgt_vocab": VT,
                   "attention": attention, "score": score, "attentional_tanh": tanh},
        "src": src.tolist(), "target": y.tolist(),
        "params": {k: enc(v) for k, v in params.items()},
        **attribution_fields(f, x, IG_STEPS, weights, enc),
    }


CASES = [("rnn", "dot"), ("gru", "general_tanh"), ("lstm", "additive_tanh"), ("gru", "plain")]


def main():
    cases = []
    for i, (cell, variant) in enumerate(CASES):
        torch.manual_seed(3000 + i)
        cases.append(case(cell, variant))
    write_cases("gen_attribution", "attribution.json", cases)


if __name__ == "__main__":
    main()
