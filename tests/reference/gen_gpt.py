"""Reference data for the AttentionLab GPT (tests/native/test_gpt_reference.cpp).

Run from the repository root with Debian's PyTorch (torch 1.13; the pyenv `python3` on PATH has no torch):

    /usr/bin/python3 tests/reference/gen_gpt.py

It writes shared/reference/gpt.json and shared/reference/gpt_interchange.safetensors (committed; fixed seed
per case, one thread). The model is gpt_module.py's GPT: GPT-2's decoder-only form with nanoGPT's module and
state-dict names (bias=True, dropout 0):

    x = wte(idx) + wpe(arange(T))
    per block:  x = x + attn(ln_1(x));  x = x + mlp(ln_2(x))
        attn: q, k, v = c_attn(x).split(C);  y = softmax(q_h k_hᵀ / √(C/H), causal) v_h per head;  c_proj(y)
        mlp:  c_proj(gelu_tanh(c_fc(x))),  c_fc C → 4C
    logits = lm_head(ln_f(x)),  lm_head.weight is transformer.wte.weight (tied)
    loss = cross-entropy of logits against the next ids (targets = idx shifted by one), the mean over the
           positions whose target is not -1 (nanoGPT's ignore_index=-1)

Weights: nanoGPT's init (normal std 0.02, c_proj std 0.02/√(2L), biases 0) would keep every attention map almost
uniform and every bias at zero, so the check would not see a wrong mask or bias; here every matrix is N(0, 0.3²),
LayerNorm weights 1 + 0.2 N(0, 1), every bias 0.1 N(0, 1). They are drawn in float32 and stored exactly
(9 significant digits identify a float32); logits, attention, loss and gradients are computed in float64 from those
values and written to 9 significant digits. "attention" holds every layer's per-head weights (B, H, T, T).
"grads" holds one gradient per parameter (transformer.wte.weight's includes lm_head's use of it).
"adam" and "adamw" hold the losses of 10 torch.optim.Adam / torch.optim.AdamW steps (float64) on the same batch:
losses[i] is the loss before step i + 1. "greedy" is a greedy continuation of the first row's first 2 ids,
recomputing the whole prefix at every step (no cache), as nanoGPT's generate() with top_k=1.

The interchange file: a model of case "interchange" trained 20 AdamW steps here, saved in float32 under the
state-dict names (both transformer.wte.weight and lm_head.weight, as GPT.state_dict() has them, so that
load_state_dict(strict=True) takes the file as it is); gpt.json's "interchange" holds its logits on a batch and the
losses of 5 further AdamW steps from a fresh optimiser, which the core must reproduce from the file.
The file is written with gen_safetensors.py's save_safetensors.

What the heads learned (shared/reference/gpt_heads.json): a seeded model (weights as above) and a probe, the four
detectors' scores per layer × head (wasm/src/gpt/heads.h defines the targets; they are counted here again, from
that definition, position by position), the same with a head zeroed, and the logits and a greedy continuation with
a head zeroed (its output set to 0 before c_proj).

The other way: shared/reference/gpt_core.safetensors, a GPT trained in wasm by tests/reference/export_core_models.mjs
(run it first), loads into GPT with load_state_dict(strict=True); gpt.json's "core" holds PyTorch's logits on a
batch and the losses of 5 AdamW steps PyTorch takes from it, which the core must reproduce from the same file.
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_safetensors import load_safetensors, save_safetensors  # noqa: E402  the format by hand (not in Debian)
from gpt_module import GPT  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "shared", "reference")
OUT = os.path.join(REF, "gpt.json")
HEADS = os.path.join(REF, "gpt_heads.json")
INTERCHANGE = os.path.join(REF, "gpt_interchange.safetensors")
CORE = os.path.join(REF, "gpt_core.safetensors")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)


def short(x):
    """9 significant digits: exact for the float32 weights, ~1e-9 relative for float64 results."""
    return float("%.9g" % x)


def enc(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": [short(x) for x in t.flatten().tolist()]}


def perturb(model):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "ln_" in name and name.endswith("weight"):
                p.copy_(1 + 0.2 * torch.randn_like(p))
            elif name.endswith("bias"):
                p.copy_(0.1 * torch.randn_like(p))
            else:
                p.copy_(0.3 * torch.randn_like(p))


def make_batch(B, T, vocab):
    data = torch.randint(0, vocab, (B, T + 1))
    return data[:, :-1].contiguous(), data[:, 1:].contiguous()


def state_dict_f32(model):
    # GPT.state_dict() has both tied names; each is stored.
    return {k: v.detach().float().clone() for k, v in model.state_dict().items()}


def steps(model, idx, tgt, opt, n):
    losses = []
    for _ in range(n):
        opt.zero_grad()
        _, loss = model(idx, tgt)
        losses.append(short(loss.item()))
        loss.backward()
        opt.step()
    return losses


def config_of(vocab, block, layers, heads, C):
    return {"vocab": vocab, "block_size": block, "layers": layers, "heads": heads, "d_model": C}


def case(name, layers, heads, C, block, vocab, B, T, ignored=()):
    """ignored: per row, how many of its last targets are -1 (as a training window after its poem ends)."""
    model = GPT(vocab, block, layers, heads, C)
    perturb(model)
    idx, tgt = make_batch(B, T, vocab)
    for row, n in enumerate(ignored):
        if n:
            tgt[row, T - n:] = -1
    params = state_dict_f32(model)
    model = model.double()
    logits, loss = model(idx, tgt)
    attention = [blk.attn.att for blk in model.transformer.h]
    model.zero_grad()
    loss.backward()
    grads = {k: p.grad.detach().clone() for k, p in model.named_parameters()}
    grads_named = {("transformer.wte.weight" if k == "lm_head.weight" else k): g for k, g in grads.items()}
    assert set(grads_named) | {"lm_head.weight"} == set(params), set(grads_named) ^ set(params)
    for k, g in grads_named.items():
        assert torch.isfinite(g).all(), k
        assert g.abs().max() > 0, k  # every parameter must matter, or its check proves nothing

    # Greedy continuation, recomputed from the whole prefix each step (no cache).
    seq = idx[:1, :2].clone()
    with torch.no_grad():
        while seq.shape[1] < block:
            out, _ = model(seq)
            seq = torch.cat([seq, out[:, -1].argmax(-1, keepdim=True)], dim=1)

    start = {k: v.clone() for k, v in model.state_dict().items()}
    adam = steps(model, idx, tgt, torch.optim.Adam(model.parameters(), lr=1e-2), 10)
    model.load_state_dict(start)
    adamw = steps(model, idx, tgt, torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1.0), 10)
    # The decay must show in the losses, or matching them would not tell AdamW from Adam.
    assert abs(adam[-1] - adamw[-1]) > 1e-3 * abs(adam[-1]), (adam[-1], adamw[-1])

    return {
        "name": name,
        "config": config_of(vocab, block, layers, heads, C),
        "batch": {"B": B, "T": T, "idx": idx.flatten().tolist(), "targets": tgt.flatten().tolist()},
        "params": {k: enc(v) for k, v in params.items() if k != "lm_head.weight"},
        "logits": enc(logits),
        "attention": [enc(a) for a in attention],
        "loss": short(loss.item()),
        "grads": {k: enc(v) for k, v in grads_named.items()},
        "greedy": {"prompt": seq[0, :2].tolist(), "ids": seq[0].tolist()},
        "adam": {"lr": 1e-2, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "weight_decay": 0.0, "losses": adam},
        "adamw": {"lr": 1e-2, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "weight_decay": 1.0, "losses": adamw},
    }


def interchange():
    vocab, block, layers, heads, C = 13, 16, 2, 2, 8
    model = GPT(vocab, block, layers, heads, C)
    perturb(model)
    idx, tgt = make_batch(2, 12, vocab)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)
    steps(model, idx, tgt, opt, 20)
    tensors = state_dict_f32(model)
    save_safetensors(INTERCHANGE, tensors, {"format": "pt"})
    model = GPT(vocab, block, layers, heads, C)
    model.load_state_dict(tensors, strict=True)
    out = continued(INTERCHANGE, model, idx, tgt, 0.1)
    out["config"] = config_of(vocab, block, layers, heads, C)
    out["names"] = list(tensors)
    return out


def continued(path, model, idx, tgt, weight_decay):
    """PyTorch's logits and loss of the model read from `path`, and the losses of 5 AdamW steps from it."""
    model = model.double()
    logits, loss = model(idx, tgt)
    more = steps(model, idx, tgt, torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=weight_decay), 5)
    return {
        "file": os.path.basename(path),
        "batch": {"B": idx.shape[0], "T": idx.shape[1], "idx": idx.flatten().tolist(), "targets": tgt.flatten().tolist()},
        "logits": enc(logits),
        "loss": short(loss.item()),
        "adamw": {"lr": 1e-2, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "weight_decay": weight_decay, "losses": more},
    }


def from_core():
    tensors, metadata = load_safetensors(CORE)
    c = json.loads(metadata["config"])
    model = GPT(c["vocab"], c["block_size"], c["layers"], c["heads"], c["d_model"])
    model.load_state_dict(tensors, strict=True)
    idx, tgt = make_batch(2, 10, c["vocab"])
    out = continued(CORE, model, idx, tgt, 0.1)
    out["config"] = config_of(c["vocab"], c["block_size"], c["layers"], c["heads"], c["d_model"])
    return out


def head_queries(text, line_end, start, length):
    """The scored queries of the three text detectors on text[start:start + length], window-local:
    {detector: [(query, [targets])]}, counted from heads.h's definition."""
    end = start + length
    line_of, line_starts = [], [0]  # each position's line number; each line's first position
    for i in range(end):
        line_of.append(len(line_starts) - 1)
        if text[i] in line_end:
            line_starts.append(i + 1)
    out = {"previous": [], "lineBack": [], "lineStart": []}
    for i in range(start, end):
        k = line_of[i]
        column = i - line_starts[k]
        if i >= 1:
            out["previous"].append((i, [i - 1]))
        if k >= 1:
            target = line_starts[k - 1] + column
            if target < line_starts[k] and target != i - 1:
                out["lineBack"].append((i, [target]))
        if column >= 2:
            out["lineStart"].append((i, [line_starts[k]] + ([line_starts[k] - 1] if k >= 1 else [])))
    return {d: [(q - start, [t - start for t in ts if t >= start]) for q, ts in qs] for d, qs in out.items()}


def head_scores(model, text, line_end, random, block):
    """Each detector's mean summed target weight per (layer, head), float64."""
    sums = {}
    counts = {}

    def score(idx, queries):
        model(torch.tensor([idx]))
        for d, qs in queries.items():
            qs = [(q, ts) for q, ts in qs if ts]
            counts[d] = counts.get(d, 0) + len(qs)
            s = sums.setdefault(d, torch.zeros(len(model.transformer.h), model.transformer.h[0].attn.H, dtype=torch.float64))
            for layer, blk in enumerate(model.transformer.h):
                for q, ts in qs:
                    s[layer] += blk.attn.att[0, :, q, ts].sum(-1)

    for start in range(0, len(text), block):
        length = min(block, len(text) - start)
        if length >= 2:
            score(text[start:start + length], head_queries(text, line_end, start, length))
    n = len(random)
    score(random + random, {"induction": [(n + j, [j + 1]) for j in range(n - 1)]})
    return {d: enc(sums[d] / counts[d]) for d in sums}, counts


def set_zero_heads(model, heads):
    for blk in model.transformer.h:
        blk.attn.zero_heads = ()
    for layer, head in heads:
        model.transformer.h[layer].attn.zero_heads += (head,)


def heads():
    vocab, block, layers, H, C = 12, 16, 2, 4, 16
    model = GPT(vocab, block, layers, H, C)
    perturb(model)
    params = state_dict_f32(model)
    model = model.double()
    line_end = [0, 1]  # as if "\n" and "，"
    # Lines of 3 to 6 characters, each ended by a line end; 45 ids: three windows of the block.
    text, r = [], torch.Generator().manual_seed(7)
    while len(text) < 45:
        text += torch.randint(2, vocab, (int(torch.randint(2, 6, (1,), generator=r)),), generator=r).tolist()
        text.append(int(torch.randint(0, 2, (1,), generator=r)))
    text = text[:45]
    random = torch.randperm(vocab, generator=r)[:6].tolist()
    zero = [[0, 1], [1, 2]]
    out = {"config": config_of(vocab, block, layers, H, C), "params": {k: enc(v) for k, v in params.items() if k != "lm_head.weight"},
           "probe": {"text": text, "lineEnd": line_end, "random": random}}
    with torch.no_grad():
        out["scores"], out["queries"] = head_scores(model, text, line_end, random, block)
        set_zero_heads(model, zero)
        out["zeroHeads"] = zero
        out["zeroedScores"], _ = head_scores(model, text, line_end, random, block)
        idx = torch.tensor([text[:block]])
        out["batch"] = {"B": 1, "T": block, "idx": text[:block]}
        out["zeroedLogits"] = enc(model(idx)[0])
        seq = idx[:, :2]
        while seq.shape[1] < block:
            seq = torch.cat([seq, model(seq)[0][:, -1].argmax(-1, keepdim=True)], dim=1)
        out["zeroedGreedy"] = {"prompt": seq[0, :2].tolist(), "ids": seq[0].tolist()}
        set_zero_heads(model, [])
        out["logits"] = enc(model(idx)[0])
    # Zeroing must change what the check reads, or matching it would not tell the mask from none.
    assert max(abs(a - b) for a, b in zip(out["logits"]["data"], out["zeroedLogits"]["data"])) > 1e-2
    return out


# (name, layers, heads, d_model, block_size, vocab, B, T[, ignored]): 1–4 layers, 1/2/4 heads, contexts 5–20, T
# below and at the block size; the last case's rows end in 1, 5 and 0 targets of -1.
CASES = [
    ("l1_h1_t5", 1, 1, 8, 8, 11, 2, 5),
    ("l2_h2_t16", 2, 2, 8, 16, 13, 2, 16),
    ("l3_h4_t7", 3, 4, 16, 12, 10, 3, 7),
    ("l4_h2_t6", 4, 2, 8, 6, 9, 2, 6),
    ("l2_h4_t20", 2, 4, 16, 32, 17, 1, 20),
    ("l2_h2_t9_ignored", 2, 2, 8, 12, 11, 3, 9, (1, 5, 0)),
    # Contexts long enough for the causal heads' blocks of 16 queries (mha.cpp): three blocks;
    # and two, the last taking the remainder, over windows whose targets end early.
    ("l2_h2_t48", 2, 2, 8, 48, 13, 1, 48),
    ("l1_h2_t37_ignored", 1, 2, 8, 40, 11, 2, 37, (0, 3)),
]


def main():
    cases = []
    for i, c in enumerate(CASES):
        torch.manual_seed(5000 + i)
        cases.append(case(*c))
    torch.manual_seed(5100)
    inter = interchange()
    torch.manual_seed(5200)
    core = from_core()
    dump = lambda o: json.dumps(o, indent=None, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = ('{"generator":' + dump("tests/reference/gen_gpt.py") + ',"torch":' + dump(str(torch.__version__))
            + ',"interchange":' + dump(inter) + ',"core":' + dump(core) + ',"cases":[\n' + ",\n".join(dump(c) for c in cases) + "\n]}\n")
    json.loads(text)
    torch.manual_seed(5300)
    head_text = '{"generator":' + dump("tests/reference/gen_gpt.py") + ',"torch":' + dump(str(torch.__version__)) + ',"heads":' + dump(heads()) + "}\n"
    os.makedirs(REF, exist_ok=True)
    with open(HEADS, "w", encoding="utf-8", newline="\n") as f:
        f.write(head_text)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"gen_gpt: {len(cases)} cases, {len(text.encode())} bytes -> {os.path.relpath(OUT, ROOT)}, "
          f"{os.path.getsize(INTERCHANGE)} bytes -> {os.path.relpath(INTERCHANGE, ROOT)}")


if __name__ == "__main__":
    main()
