"""Reference data for attribution (wasm/src/seq2seq/attribution.h): gradient x input and integrated gradients
of each output word's log-probability with respect to the source embeddings, by PyTorch autograd.

Run from the repository root with Debian's PyTorch (the pyenv `python3` on PATH has no torch):

    /usr/bin/python3 tests/reference/gen_attribution.py

It writes shared/reference/attribution.json (committed; byte-identical from run to run: fixed seed per case,
one thread). The model is gen_seq2seq.py's Seq2Seq (the same modules and state-dict names), run on one sentence
(no padding) with the source embeddings x (S, E) given directly, teacher-forced on the target y (T words, <eos>
last) after <sos>. For output word t, f_t = log softmax(logits[t])[y_t]:

    gradient x input:      a[t, s] = sum_e x[s, e] * df_t/dx[s, e]
    integrated gradients:  a[t, s] = sum_e x[s, e] * (1/n) sum_{k=1..n} df_t/dx[s, e] at ((k - 1/2)/n) x

(zero-embedding baseline, midpoint rule), with f_t(x) and f_t(0), the teacher-forced attention (T, S) and
Spearman's rho between each attention row and each attribution row (average ranks for ties; null when either
row is constant). Weights are drawn in float32 (torch.manual_seed(3000 + case index)) and stored exactly; the
rest is computed in float64 from them.

Per case: {"name", "config", "src", "target", "params", "ig_steps", "log_prob", "baseline_log_prob",
"gradient_input", "integrated_gradients", "attention", "rank_correlation": {"gradient_input": [...],
"integrated_gradients": [...]}}, tensors as {"shape": [...], "data": [flat row-major values]}.
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_seq2seq import E, HD, VS, VT, Seq2Seq, enc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "shared", "reference", "attribution.json")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

S, T, IG_STEPS = 5, 4, 8


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


def grads_at(model, emb, tgt_in, y):
    """(T, S, E): df_t/dx at emb, one autograd call per output word."""
    emb = emb.clone().requires_grad_(True)
    f, _ = log_probs(model, emb, tgt_in, y)
    return torch.stack([torch.autograd.grad(f[t], emb, retain_graph=True)[0] for t in range(len(y))])


def average_ranks(x):
    order = sorted(range(len(x)), key=lambda i: x[i])
    r = [0.0] * len(x)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = average_ranks(a), average_ranks(b)
    n = len(a)
    m = (n + 1) / 2
    cov = sum((x - m) * (y - m) for x, y in zip(ra, rb))
    va = sum((x - m) ** 2 for x in ra)
    vb = sum((y - m) ** 2 for y in rb)
    return None if va == 0 or vb == 0 else cov / (va * vb) ** 0.5


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

    f_x, weights = log_probs(model, x, tgt_in, y)
    f_0, _ = log_probs(model, torch.zeros_like(x), tgt_in, y)
    gxi = (x * grads_at(model, x, tgt_in, y)).sum(-1)                           # (T, S)
    mean = sum(grads_at(model, ((k - 0.5) / IG_STEPS) * x, tgt_in, y) for k in range(1, IG_STEPS + 1)) / IG_STEPS
    ig = (x * mean).sum(-1)

    rho = None
    if weights is not None:
        w = weights.detach().tolist()
        rho = {"gradient_input": [spearman(gxi[t].tolist(), w[t]) for t in range(T)],
               "integrated_gradients": [spearman(ig[t].tolist(), w[t]) for t in range(T)]}
    return {
        "name": f"{cell}_{variant}",
        "config": {"cell": cell, "hidden": HD, "embedding": E, "src_vocab": VS, "tgt_vocab": VT,
                   "attention": attention, "score": score, "attentional_tanh": tanh},
        "src": src.tolist(), "target": y.tolist(),
        "params": {k: enc(v) for k, v in params.items()},
        "ig_steps": IG_STEPS,
        "log_prob": f_x.detach().tolist(), "baseline_log_prob": f_0.detach().tolist(),
        "gradient_input": enc(gxi), "integrated_gradients": enc(ig),
        "attention": enc(weights) if weights is not None else None,
        "rank_correlation": rho,
    }


CASES = [("rnn", "dot"), ("gru", "general_tanh"), ("lstm", "additive_tanh"), ("gru", "plain")]


def main():
    cases = []
    for i, (cell, variant) in enumerate(CASES):
        torch.manual_seed(3000 + i)
        cases.append(case(cell, variant))
    dump = lambda o: json.dumps(o, indent=None, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = ('{"generator":' + dump("tests/reference/gen_attribution.py") + ',"torch":'
            + dump(str(torch.__version__)) + ',"cases":[\n' + ",\n".join(dump(c) for c in cases) + "\n]}\n")
    json.loads(text)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"gen_attribution: {len(cases)} cases, {len(text.encode())} bytes -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
