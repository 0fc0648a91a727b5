"""Reference data for the AttentionLab attention core (C++ native tests and wasm Node tests).

Run from the repository root with Debian's PyTorch (torch 1.13; the pyenv `python3` on PATH has no torch):

    /usr/bin/python3 tests/reference/gen_attention.py

It writes shared/reference/attention.json. That file is committed, so the tests never need torch; rerun this
script only when the cases change. Output is byte-identical from run to run (fixed seed per case, one thread).

Every case draws its inputs as float32 with torch.randn (seed 1000 + case index) and stores them exactly;
every reference output and gradient is then computed in float64 from those float32 values. Each case has
  {"name", "kind", "rtol", "inputs", "config", "outputs", "grad_output", "grads"}
and every tensor is {"shape": [...], "data": [flat row-major values]} (a scalar has shape []).
The scalar loss is L = sum(main_output * grad_output) and "grads" are dL/d(input) for every float input and
weight (key_padding masks and integer ids/targets get none). Kinds: attention, self_attention, multi_head,
linear, embedding, tanh, softmax, cross_entropy. Cases follow the note's code for §3.1-3.6.
"""
import json
import math
import os

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "shared", "reference", "attention.json")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)


# ----------------------------------------------------------------------------------------------- helpers
def randn(*shape, scale=1.0):
    """float32 draw; the product stays float32, so the stored value is exactly what was used."""
    t = torch.randn(*shape, dtype=torch.float32)
    return t * scale if scale != 1.0 else t


def enc(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": t.flatten().tolist()}


def key_padding(B, M, pads):
    """(B, M) float mask, 1.0 = padding key; batch b pads its last pads[b] keys (key 0 is always kept)."""
    kp = torch.zeros(B, M, dtype=torch.float32)
    for b, p in enumerate(pads):
        assert 0 <= p < M
        if p:
            kp[b, M - p:] = 1.0
    return kp


def allowed_mask(N, M, causal, kp):
    """bool (B or 1, N, M), True = query n may attend key m; None when nothing is masked."""
    if not causal and kp is None:
        return None
    allowed = torch.ones(1, N, M, dtype=torch.bool)
    if causal:
        allowed = allowed & torch.tril(torch.ones(N, M, dtype=torch.bool))
    if kp is not None:
        allowed = allowed & (kp == 0).unsqueeze(1)
    assert allowed.any(-1).all(), "a fully masked query row"
    return allowed


def masked_softmax(scaled, allowed):
    if allowed is None:
        return torch.softmax(scaled, dim=-1)
    return torch.softmax(scaled.masked_fill(~allowed, float("-inf")), dim=-1)


def check_weights(w, allowed):
    assert torch.isfinite(w).all()
    assert (w.sum(-1) - 1.0).abs().max().item() < 1e-12, "weights rows must sum to 1"
    if allowed is not None:
        assert (w.masked_select(~allowed.expand_as(w)) == 0.0).all(), "masked weights must be exactly 0"


def finish(name, kind, rtol, config, inputs, leaves, outputs, main):
    """Draw grad_output, backprop L = sum(main * G) in float64, check and encode the case."""
    G = randn(*main.shape) if main.dim() else torch.tensor(1.0, dtype=torch.float32)
    (main * G.double()).sum().backward()
    grads = {k: v.grad for k, v in leaves.items()}
    for group in (inputs, outputs, grads):
        for k, t in group.items():
            assert t is not None, (name, k)
            if t.is_floating_point():
                assert torch.isfinite(t).all(), (name, k)
    return {
        "name": name, "kind": kind, "rtol": rtol,
        "inputs": {k: enc(v) for k, v in inputs.items()},
        "config": config,
        "outputs": {k: enc(v) for k, v in outputs.items()},
        "grad_output": enc(G),
        "grads": {k: enc(v) for k, v in grads.items()},
    }


def float_leaves(inputs, skip=("key_padding",)):
    return {k: v.double().requires_grad_(True) for k, v in inputs.items()
            if k not in skip and v.is_floating_point()}


# ------------------------------------------------------------------------------------------------- kinds
def attention(name, score, B, N, M, D, Dk=None, Dv=None, A=None, temperature=1.0, causal=False,
              pads=None, scale=1.0, same_kv=False, query=None, key=None, rtol=1e-5, max_weight=None):
    Dk = D if Dk is None else Dk
    Dv = D if Dv is None else Dv
    A = D if A is None else A
    assert score in ("dot", "scaled", "general", "additive", "cosine")
    if score in ("dot", "scaled", "cosine"):
        assert Dk == D
    inputs = {"query": randn(B, N, D, scale=scale) if query is None else query,
              "key": randn(B, M, Dk, scale=scale) if key is None else key}
    inputs["value"] = inputs["key"].clone() if same_kv else randn(B, M, Dv, scale=scale)
    if pads is not None:
        inputs["key_padding"] = key_padding(B, M, pads)
    if score == "general":                                  # nn.Linear(Dk, D, bias=False).weight
        inputs["w"] = randn(D, Dk, scale=1 / math.sqrt(Dk))
    elif score == "additive":
        inputs["w1"] = randn(A, D, scale=1 / math.sqrt(D))
        inputs["w2"] = randn(A, Dk, scale=1 / math.sqrt(Dk))
        inputs["b"] = randn(A, scale=0.5)
        inputs["v"] = randn(A, scale=1 / math.sqrt(A))
    L = float_leaves(inputs)
    q, k, v = L["query"], L["key"], L["value"]
    kT = lambda t: t.transpose(-1, -2)  # noqa: E731
    if score in ("dot", "scaled"):
        S = q @ kT(k)
    elif score == "general":                                # s[n,m] = q_n^T W k_m
        S = q @ kT(k @ L["w"].t())
    elif score == "additive":                               # v^T tanh(W1 q_n + W2 k_m + b)
        h = torch.tanh((q @ L["w1"].t()).unsqueeze(2) + (k @ L["w2"].t()).unsqueeze(1) + L["b"])
        S = h @ L["v"]
    else:                                                   # cosine, F.normalize eps 1e-12
        S = F.normalize(q, dim=-1) @ kT(F.normalize(k, dim=-1))
    if score == "scaled":
        scaled = S / math.sqrt(D)
    elif score == "cosine":
        scaled = S / temperature
    else:
        scaled = S
    allowed = allowed_mask(N, M, causal, inputs.get("key_padding"))
    w = masked_softmax(scaled, allowed)
    check_weights(w, allowed)
    if max_weight is not None:
        assert w.max().item() < max_weight, (name, w.max().item())
    out = w @ v
    config = {"score": score, "temperature": float(temperature) if score == "cosine" else 1.0,
              "causal": causal}
    outputs = {"scores": S, "scaled": scaled, "weights": w, "output": out}
    return finish(name, "attention", rtol, config, inputs, L, outputs, out)


def qkv_weights(D, with_out=False):
    names = ["q", "k", "v"] + (["o"] if with_out else [])
    ws = {}
    for n in names:                                          # nn.Linear(D, D): weight (D, D), bias (D)
        ws["w" + n] = randn(D, D, scale=1 / math.sqrt(D))
        ws["b" + n] = randn(D, scale=1 / math.sqrt(D))
    return ws


def self_attention(name, B, N, D, causal=False, pads=None, rtol=1e-5):
    inputs = {"x": randn(B, N, D)}
    inputs.update(qkv_weights(D))
    if pads is not None:
        inputs["key_padding"] = key_padding(B, N, pads)
    L = float_leaves(inputs)
    x = L["x"]
    q = x @ L["wq"].t() + L["bq"]
    k = x @ L["wk"].t() + L["bk"]
    v = x @ L["wv"].t() + L["bv"]
    S = q @ k.transpose(-1, -2)
    scaled = S / math.sqrt(D)
    allowed = allowed_mask(N, N, causal, inputs.get("key_padding"))
    w = masked_softmax(scaled, allowed)
    check_weights(w, allowed)
    out = w @ v
    outputs = {"q": q, "k": k, "v": v, "scores": S, "scaled": scaled, "weights": w, "output": out}
    return finish(name, "self_attention", rtol, {"causal": causal}, inputs, L, outputs, out)


def multi_head(name, B, N, D, H, causal=False, pads=None, rtol=1e-5):
    assert D % H == 0
    Dh = D // H
    inputs = {"x": randn(B, N, D)}
    inputs.update(qkv_weights(D, with_out=True))
    if pads is not None:
        inputs["key_padding"] = key_padding(B, N, pads)
    L = float_leaves(inputs)
    x = L["x"]
    split = lambda t: t.view(B, N, H, Dh).transpose(1, 2)  # noqa: E731  (B, H, N, Dh)
    q = split(x @ L["wq"].t() + L["bq"])
    k = split(x @ L["wk"].t() + L["bk"])
    v = split(x @ L["wv"].t() + L["bv"])
    S = q @ k.transpose(-1, -2)
    scaled = S / math.sqrt(Dh)
    allowed = allowed_mask(N, N, causal, inputs.get("key_padding"))
    if allowed is not None:
        allowed = allowed.unsqueeze(1)                       # broadcast over heads
    w = masked_softmax(scaled, allowed)
    check_weights(w, allowed)
    heads = w @ v
    context = heads.transpose(1, 2).contiguous().view(B, N, D)
    out = context @ L["wo"].t() + L["bo"]
    outputs = {"q": q, "k": k, "v": v, "scores": S, "scaled": scaled, "weights": w,
               "context": context, "output": out}
    return finish(name, "multi_head", rtol, {"num_heads": H, "causal": causal}, inputs, L, outputs, out)


def linear(name, R, I, O, rtol=1e-5):
    inputs = {"x": randn(R, I), "weight": randn(O, I, scale=1 / math.sqrt(I)), "bias": randn(O)}
    L = float_leaves(inputs)
    y = L["x"] @ L["weight"].t() + L["bias"]
    return finish(name, "linear", rtol, {}, inputs, L, {"y": y}, y)


def embedding(name, T, V, C, rtol=1e-5):
    ids = torch.randint(0, V, (T,), dtype=torch.int64)
    ids[T - 1] = ids[1]                                      # guarantee a repeated id
    inputs = {"ids": ids, "table": randn(V, C)}
    L = float_leaves(inputs)
    y = F.embedding(ids, L["table"])
    return finish(name, "embedding", rtol, {}, inputs, L, {"y": y}, y)


def tanh(name, R, C, rtol=1e-5):
    inputs = {"x": randn(R, C, scale=1.5)}
    L = float_leaves(inputs)
    y = torch.tanh(L["x"])
    return finish(name, "tanh", rtol, {}, inputs, L, {"y": y}, y)


def softmax(name, R, C, row_offsets=None, offset=0.0, rtol=1e-5, max_weight=None):
    x = randn(R, C)
    if offset:
        x = x + offset                                       # float32 add: stored value is the used value
    for r, off in (row_offsets or {}).items():
        x[r] = x[r] + off
    inputs = {"x": x}
    L = float_leaves(inputs)
    y = torch.softmax(L["x"], dim=-1)
    check_weights(y, None)
    if max_weight is not None:
        assert y.max().item() < max_weight, (name, y.max().item())
    return finish(name, "softmax", rtol, {}, inputs, L, {"y": y}, y)


def cross_entropy(name, R, V, ignored_rows, ignore_index=0, rtol=1e-5):
    logits = randn(R, V, scale=1.5)
    targets = torch.randint(1, V, (R,), dtype=torch.int64)  # 1..V-1, never the ignore index by chance
    for r in ignored_rows:
        targets[r] = ignore_index
    inputs = {"logits": logits, "targets": targets}
    L = float_leaves(inputs)
    loss = F.cross_entropy(L["logits"], targets, ignore_index=ignore_index, reduction="mean")
    probs = torch.softmax(L["logits"], dim=-1)
    return finish(name, "cross_entropy", rtol, {"ignore_index": ignore_index}, inputs, L,
                  {"loss": loss, "probs": probs}, loss)


def large_offset_scores():
    """Dot scores ~2000 + {0, 0.7, 1.3, -0.4, 0.9} + small noise: weights must stay far from one-hot."""
    B, N, M, D = 1, 3, 5, 4
    c = math.sqrt(2000.0)
    q = torch.zeros(B, N, D, dtype=torch.float32)
    q[..., 0] = c
    q[..., 1] = 1.0
    q[..., 2:] = randn(B, N, 2, scale=0.3)
    k = torch.zeros(B, M, D, dtype=torch.float32)
    k[..., 0] = c
    k[..., 1] = torch.tensor([0.0, 0.7, 1.3, -0.4, 0.9])
    k[..., 2:] = randn(B, M, 2, scale=0.3)
    case = attention("large_offset_scores", "dot", B, N, M, D, query=q, key=k, rtol=1e-3, max_weight=0.9)
    s = case["outputs"]["scores"]["data"]
    assert min(s) > 1998 and max(s) < 2003, (min(s), max(s))
    return case


# ------------------------------------------------------------------------------------------------- cases
CASES = [
    # the note's snippets, with the note's shapes (keys = values in 3.1, 3.2, 3.4)
    lambda: attention("note_3_1_dot", "dot", 2, 3, 5, 4, same_kv=True),
    lambda: attention("note_3_2_scaled", "scaled", 2, 3, 5, 4, same_kv=True),
    lambda: attention("note_3_4_qkv", "scaled", 2, 3, 5, 4, same_kv=True),
    lambda: self_attention("note_3_5_self_attention", 2, 3, 4),
    lambda: multi_head("note_3_6_multi_head", 2, 3, 4, 2),
    # other shapes
    lambda: attention("scaled_batch1", "scaled", 1, 4, 6, 4),
    lambda: attention("scaled_batch3", "scaled", 3, 3, 4, 4),
    lambda: attention("scaled_query1_keys7", "scaled", 2, 1, 7, 4),
    lambda: attention("scaled_queries7_key1", "scaled", 2, 7, 1, 4),
    lambda: attention("scaled_d8", "scaled", 2, 3, 5, 8),
    lambda: attention("scaled_dv5", "scaled", 2, 3, 4, 4, Dv=5),
    lambda: attention("scaled_key_padding", "scaled", 2, 4, 5, 4, pads=[1, 3]),
    lambda: attention("scaled_causal", "scaled", 2, 5, 5, 4, causal=True),
    lambda: attention("scaled_causal_key_padding", "scaled", 2, 5, 5, 4, causal=True, pads=[2, 1]),
    # every score function, plain and with key padding
    lambda: attention("dot_key_padding", "dot", 2, 3, 5, 4, pads=[2, 1]),
    lambda: attention("general_dk6", "general", 2, 3, 5, 4, Dk=6, Dv=3),
    lambda: attention("general_dk6_key_padding", "general", 2, 3, 5, 4, Dk=6, Dv=3, pads=[1, 2]),
    lambda: attention("general_causal", "general", 2, 4, 4, 4, causal=True),
    lambda: attention("additive_dk6_a5", "additive", 2, 3, 5, 4, Dk=6, Dv=3, A=5),
    lambda: attention("additive_dk6_a5_key_padding", "additive", 2, 3, 5, 4, Dk=6, Dv=3, A=5, pads=[2, 0]),
    lambda: attention("cosine_temp_0p1", "cosine", 2, 3, 5, 4, temperature=0.1),
    lambda: attention("cosine_temp_1_key_padding", "cosine", 2, 3, 5, 4, temperature=1.0, pads=[1, 3]),
    lambda: attention("cosine_temp_0p1_key_padding", "cosine", 2, 3, 5, 4, temperature=0.1, pads=[0, 2]),
    # numerics
    lambda: attention("large_magnitude_x50", "scaled", 2, 3, 5, 4, scale=50.0),
    large_offset_scores,
    # self-attention and multi-head variants
    lambda: self_attention("self_attention_causal", 2, 4, 4, causal=True),
    lambda: self_attention("self_attention_key_padding", 2, 4, 4, pads=[0, 2]),
    lambda: multi_head("multi_head_1head_d8", 2, 3, 8, 1),
    lambda: multi_head("multi_head_4heads_d8", 2, 3, 8, 4),
    lambda: multi_head("multi_head_causal_d8", 2, 4, 8, 2, causal=True),
    lambda: multi_head("multi_head_key_padding_d8", 2, 4, 8, 4, pads=[1, 2]),
    # building blocks for the Seq2Seq model
    lambda: linear("linear_3x4_to_5", 3, 4, 5),
    lambda: embedding("embedding_t6_v7_c3", 6, 7, 3),
    lambda: tanh("tanh_3x4", 3, 4),
    lambda: softmax("softmax_row_offset_1000", 4, 5, row_offsets={2: 1000.0}),
    lambda: softmax("softmax_offset_2000", 3, 5, offset=2000.0, rtol=1e-3, max_weight=0.9),
    lambda: cross_entropy("cross_entropy_5x6_ignore0", 5, 6, ignored_rows=[1, 3]),
]


def main():
    cases = []
    for i, make in enumerate(CASES):
        torch.manual_seed(1000 + i)
        cases.append(make())
    names = [c["name"] for c in cases]
    assert len(set(names)) == len(names), "duplicate case names"
    dump = lambda o: json.dumps(o, indent=None, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = ('{"generator":' + dump("tests/reference/gen_attention.py") + ',"torch":' + dump(str(torch.__version__))
            + ',"cases":[\n' + ",\n".join(dump(c) for c in cases) + "\n]}\n")
    json.loads(text)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"gen_attention: {len(cases)} cases, {len(text.encode())} bytes -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
