"""Reference data for the AttentionLab Transformer (tests/native/test_transformer_reference.cpp,
tests/wasm/transformer-reference.test.mjs).

Run from the repository root with Debian's PyTorch (torch 1.13; the pyenv `python3` on PATH has no torch):

    /usr/bin/python3 tests/reference/gen_transformer.py

It writes shared/reference/transformer.json (committed; byte-identical from run to run: fixed seed per case, one
thread). The model is nn.Embedding + sinusoidal positions + nn.Transformer + nn.Linear:

    x = src_embedding(src) * sqrt(d_model) + pe[:S];  y = tgt_embedding(tgt_in) * sqrt(d_model) + pe[:T]
    h = transformer(x, y, tgt_mask=causal(T), src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
                    memory_key_padding_mask=src_pad);  logits = out(h)

with pe[pos, 2i] = sin(pos / 10000^(2i/d)), pe[pos, 2i+1] = cos(pos / 10000^(2i/d)); src_pad marks positions at
or past each source's length, tgt_pad the decoder inputs equal to 0 (<pad>); the loss is the cross-entropy over
targets != 0. The model runs in training mode with dropout 0: PyTorch 1.13's fast path (eval mode, nested
tensors) is never taken, so this is the plain math path. Every sequence has length >= 1 and tgt_in[:, 0] is
<sos>: a query with every key masked gives NaN in PyTorch (softmax over all -inf), and the C++ core refuses it.

Weights: PyTorch's init from torch.manual_seed(3000 + case index), then LayerNorm weights 1 + 0.2 N(0, 1),
LayerNorm biases and the attention biases (zero at init) 0.1 N(0, 1), so that every parameter influences the
loss generically. They are drawn in float32 and stored exactly (9 significant digits identify a float32); logits, attention, loss and gradients are then
computed in float64 from those values and written to 9 significant digits. "attention" holds every layer's per-head weights (need_weights with
average_attn_weights=False): encoder_self (B, H, S, S), decoder_self (B, H, T, T), cross (B, H, T, S).
"adam" holds the losses of 10 torch.optim.Adam steps (lr 1e-2, float64) on the same batch: losses[i] is the loss
before step i + 1.
"""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

from transformer_module import TransformerSeq2Seq

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "shared", "reference", "transformer.json")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

D_MODEL, D_FF = 8, 16
SRC_LEN = [5, 3, 1]  # B = 3, S = 5
TGT_LEN = [4, 2, 3]  # T = 4 (decoder inputs <sos> + target, outputs target + <eos>)
B, S, T = 3, 5, 4


def short(x):
    """9 significant digits: exact for the float32 weights, ~1e-9 relative for float64 results."""
    return float("%.9g" % x)


def enc(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": [short(x) for x in t.flatten().tolist()]}


# Every nn.MultiheadAttention call also returns its per-head weights, recorded in call order.
_RECORD = []
_mha_forward = nn.MultiheadAttention.forward


def _recording_forward(self, *args, **kwargs):
    kwargs["need_weights"] = True
    kwargs["average_attn_weights"] = False
    out = _mha_forward(self, *args, **kwargs)
    _RECORD.append((self, out[1].detach().clone()))
    return out


nn.MultiheadAttention.forward = _recording_forward


def make_batch(vs, vt):
    """Ids 1.. at real positions (0 only as padding); tgt_in = <sos>=1 + target, tgt_out = target + <eos>=2."""
    src = torch.zeros(B, S, dtype=torch.long)
    tgt_in = torch.zeros(B, T, dtype=torch.long)
    tgt_out = torch.zeros(B, T, dtype=torch.long)
    for b in range(B):
        src[b, : SRC_LEN[b]] = torch.randint(1, vs, (SRC_LEN[b],))
        seq = torch.randint(3, vt, (TGT_LEN[b] - 1,))
        tgt_in[b, 0] = 1
        tgt_in[b, 1 : TGT_LEN[b]] = seq
        tgt_out[b, : TGT_LEN[b] - 1] = seq
        tgt_out[b, TGT_LEN[b] - 1] = 2
    src_pad = torch.arange(S).unsqueeze(0) >= torch.tensor(SRC_LEN).unsqueeze(1)
    tgt_pad = tgt_in == 0
    return src, tgt_in, tgt_out, src_pad, tgt_pad


def perturb(model):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name and name.endswith("weight"):
                p.copy_(1 + 0.2 * torch.randn_like(p))
            elif "norm" in name or "in_proj_bias" in name or "out_proj.bias" in name:
                p.copy_(0.1 * torch.randn_like(p))


def loss_of(model, batch, vt):
    src, tgt_in, tgt_out, src_pad, tgt_pad = batch
    logits = model(src, tgt_in, src_pad, tgt_pad)
    return F.cross_entropy(logits.reshape(-1, vt), tgt_out.reshape(-1), ignore_index=0), logits


def case(layers, heads, norm_first, vs, vt):
    model = TransformerSeq2Seq(vs, vt, D_MODEL, heads, layers, D_FF, norm_first)
    perturb(model)
    batch = make_batch(vs, vt)
    params = {k: v.detach().clone() for k, v in model.state_dict().items()}
    model = model.double().train()
    _RECORD.clear()
    loss, logits = loss_of(model, batch, vt)
    enc_self = [w for m, w in _RECORD if any(m is l.self_attn for l in model.transformer.encoder.layers)]
    dec_self = [w for m, w in _RECORD if any(m is l.self_attn for l in model.transformer.decoder.layers)]
    cross = [w for m, w in _RECORD if any(m is l.multihead_attn for l in model.transformer.decoder.layers)]
    assert len(enc_self) == len(dec_self) == len(cross) == layers
    model.zero_grad()
    loss.backward()
    grads = {k: p.grad.detach().clone() for k, p in model.named_parameters()}
    assert set(grads) == set(params), set(grads) ^ set(params)
    for k, g in grads.items():
        assert torch.isfinite(g).all(), k
        assert g.abs().max() > 0, k  # every parameter must matter, or its check proves nothing

    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(10):
        opt.zero_grad()
        step_loss, _ = loss_of(model, batch, vt)
        losses.append(step_loss.item())
        step_loss.backward()
        opt.step()

    src, tgt_in, tgt_out, _, _ = batch
    return {
        "name": f"{'pre' if norm_first else 'post'}_l{layers}_h{heads}",
        "config": {"layers": layers, "heads": heads, "d_model": D_MODEL, "d_ff": D_FF, "norm_first": norm_first,
                   "src_vocab": vs, "tgt_vocab": vt},
        "batch": {"B": B, "S": S, "T": T, "src": src.flatten().tolist(), "src_len": SRC_LEN,
                  "tgt_in": tgt_in.flatten().tolist(), "tgt_out": tgt_out.flatten().tolist()},
        "params": {k: enc(v) for k, v in params.items()},
        "logits": enc(logits),
        "attention": {"encoder_self": [enc(w) for w in enc_self], "decoder_self": [enc(w) for w in dec_self],
                      "cross": [enc(w) for w in cross]},
        "loss": short(loss.item()),
        "grads": {k: enc(v) for k, v in grads.items()},
        "adam": {"lr": 1e-2, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "losses": [short(x) for x in losses]},
    }


# (layers, heads, norm_first, source vocabulary, target vocabulary)
CASES = [
    (1, 1, False, 7, 9),
    (1, 2, True, 9, 7),
    (2, 2, False, 11, 10),
    (2, 4, True, 8, 11),
    (1, 4, False, 10, 8),
]


def main():
    cases = []
    for i, c in enumerate(CASES):
        torch.manual_seed(3000 + i)
        cases.append(case(*c))
    dump = lambda o: json.dumps(o, indent=None, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = ('{"generator":' + dump("tests/reference/gen_transformer.py") + ',"torch":' + dump(str(torch.__version__))
            + ',"max_len":256,"cases":[\n' + ",\n".join(dump(c) for c in cases) + "\n]}\n")
    json.loads(text)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"gen_transformer: {len(cases)} cases, {len(text.encode())} bytes -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
