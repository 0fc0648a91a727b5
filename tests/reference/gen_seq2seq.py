"""Reference data for the AttentionLab Seq2Seq model (tests/native/test_seq2seq_*.cpp).

Run from the repository root with Debian's PyTorch (torch 1.13; the pyenv `python3` on PATH has no torch):

    /usr/bin/python3 tests/reference/gen_seq2seq.py

It writes shared/reference/seq2seq.json (committed; byte-identical from run to run: fixed seed per case, one
thread). The model is the note's translator (its §3.3 code) built from nn.Embedding,
nn.RNN / nn.GRU / nn.LSTM (batch_first, one layer) and nn.Linear, with the C++ core's semantics:
  * the encoder runs over pack_padded_sequence(source, lengths): padded steps leave the state unchanged, so the
    decoder starts from the state at each source's own length (h, and c for the LSTM), and padded encoder
    outputs are 0;
  * the decoder runs over every target step (teacher forcing); the loss ignores targets equal to 0 (<pad>);
  * attention: every decoder output (query) attends over the encoder outputs (keys = values), padded source
    positions masked, one call for all steps (the context is not fed back into the decoder);
    output = Linear([dec_out; context]) or, with attentional_tanh, Linear(tanh(W_c [dec_out; context] + b_c)).
Score weights follow shared/reference/attention.json: general s = q^T W k (W (Hd, Hd)); additive
s = v^T tanh(W1 q + W2 k + b) with A = Hd.

Weights are drawn in float32 (PyTorch default init from torch.manual_seed(2000 + case index); embeddings
N(0, 1), cells U(+-1/sqrt(Hd)), linears and attention weights U(+-1/sqrt(in_features))) and stored exactly;
logits, loss and gradients are then computed in float64 from those values. "adam" holds the losses of 10
torch.optim.Adam steps (lr 1e-2, default betas/eps, float64) from those weights on the same batch: losses[i] is
the loss before step i + 1.

Per case: {"name", "config", "batch", "params", "logits", "attention", "loss", "grads", "adam"} with every tensor
{"shape": [...], "data": [flat row-major values]}.
"""
import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "shared", "reference", "seq2seq.json")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

CELLS = {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}

# The small shape every case uses: B=2 (source lengths 4 and 3, target lengths 4 and 3), S=4, T=4.
HD, E, VS, VT = 6, 5, 7, 8
SRC_LEN = [4, 3]
TGT_LEN = [4, 3]
B, S, T = 2, 4, 4


def enc(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": t.flatten().tolist()}


class Seq2Seq(nn.Module):
    def __init__(self, cell, attention, score, attentional_tanh):
        super().__init__()
        self.cell, self.attention_on, self.score, self.tanh = cell, attention, score, attentional_tanh
        self.encoder = nn.Module()
        self.encoder.embedding = nn.Embedding(VS, E)
        self.encoder.rnn = CELLS[cell](E, HD, batch_first=True)
        self.decoder = nn.Module()
        self.decoder.embedding = nn.Embedding(VT, E)
        self.decoder.rnn = CELLS[cell](E, HD, batch_first=True)
        bound = 1.0 / math.sqrt(HD)
        if attention and score == "general":
            self.attention = nn.Module()
            self.attention.w = nn.Parameter(torch.empty(HD, HD).uniform_(-bound, bound))
        if attention and score == "additive":
            self.attention = nn.Module()
            for name, shape in (("w1", (HD, HD)), ("w2", (HD, HD)), ("b", (HD,)), ("v", (HD,))):
                setattr(self.attention, name, nn.Parameter(torch.empty(*shape).uniform_(-bound, bound)))
        if attentional_tanh:
            self.attn_dense = nn.Linear(2 * HD, HD)
        features = 2 * HD if attention and not attentional_tanh else HD
        self.out = nn.Linear(features, VT)

    def forward(self, src, src_len, tgt_in):
        emb = self.encoder.embedding(src)                                          # (B, S, E)
        packed = pack_padded_sequence(emb, torch.tensor(src_len), batch_first=True, enforce_sorted=False)
        enc_packed, state = self.encoder.rnn(packed)                               # state at each length
        enc_out, _ = pad_packed_sequence(enc_packed, batch_first=True, total_length=src.shape[1])
        dec_out, _ = self.decoder.rnn(self.decoder.embedding(tgt_in), state)     # (B, T, Hd)
        weights = None
        feature = dec_out
        if self.attention_on:
            q, k = dec_out, enc_out
            if self.score == "dot":
                scores = q @ k.transpose(1, 2)
            elif self.score == "general":                                         # q^T W k
                scores = q @ (k @ self.attention.w.t()).transpose(1, 2)
            elif self.score == "additive":                                        # v^T tanh(W1 q + W2 k + b)
                a = self.attention
                h = torch.tanh((q @ a.w1.t()).unsqueeze(2) + (k @ a.w2.t()).unsqueeze(1) + a.b)
                scores = h @ a.v
            else:
                raise ValueError(self.score)
            pad = torch.arange(src.shape[1]).unsqueeze(0) >= torch.tensor(src_len).unsqueeze(1)  # (B, S)
            weights = torch.softmax(scores.masked_fill(pad.unsqueeze(1), float("-inf")), dim=-1)
            context = weights @ enc_out                                          # (B, T, Hd)
            feature = torch.cat([dec_out, context], dim=-1)
            if self.tanh:
                feature = torch.tanh(self.attn_dense(feature))
        return self.out(feature), weights


def make_batch():
    """Ids 1.. at real positions (0 only as padding); tgt_in[t + 1] = tgt_out[t] at real positions."""
    src = torch.zeros(B, S, dtype=torch.long)
    tgt_in = torch.zeros(B, T, dtype=torch.long)
    tgt_out = torch.zeros(B, T, dtype=torch.long)
    for b in range(B):
        src[b, :SRC_LEN[b]] = torch.randint(1, VS, (SRC_LEN[b],))
        seq = torch.randint(3, VT, (TGT_LEN[b] - 1,))
        tgt_in[b, 0] = 1                                                          # <sos>
        tgt_in[b, 1:TGT_LEN[b]] = seq
        tgt_out[b, :TGT_LEN[b] - 1] = seq
        tgt_out[b, TGT_LEN[b] - 1] = 2                                            # <eos>
    return src, tgt_in, tgt_out


def loss_of(model, src, tgt_in, tgt_out):
    logits, weights = model(src, SRC_LEN, tgt_in)
    loss = F.cross_entropy(logits.reshape(-1, VT), tgt_out.reshape(-1), ignore_index=0)
    return loss, logits, weights


def case(cell, variant):
    attention = variant != "plain"
    score = {"plain": "dot", "dot": "dot", "general_tanh": "general", "additive_tanh": "additive"}[variant]
    tanh = variant.endswith("_tanh")
    model = Seq2Seq(cell, attention, score, tanh)                 # float32 draws, stored exactly
    src, tgt_in, tgt_out = make_batch()
    params = {k: v.detach().clone() for k, v in model.state_dict().items()}
    model = model.double()
    loss, logits, weights = loss_of(model, src, tgt_in, tgt_out)
    model.zero_grad()
    loss.backward()
    grads = {k: p.grad.detach().clone() for k, p in model.named_parameters()}
    assert set(grads) == set(params), (set(grads) ^ set(params))
    for k, g in grads.items():
        assert torch.isfinite(g).all(), k

    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(10):
        opt.zero_grad()
        step_loss, _, _ = loss_of(model, src, tgt_in, tgt_out)
        losses.append(step_loss.item())
        step_loss.backward()
        opt.step()

    return {
        "name": f"{cell}_{variant}",
        "config": {"cell": cell, "hidden": HD, "embedding": E, "src_vocab": VS, "tgt_vocab": VT,
                   "attention": attention, "score": score, "attentional_tanh": tanh},
        "batch": {"B": B, "S": S, "T": T, "src": src.flatten().tolist(), "src_len": SRC_LEN,
                  "tgt_in": tgt_in.flatten().tolist(), "tgt_out": tgt_out.flatten().tolist()},
        "params": {k: enc(v) for k, v in params.items()},
        "logits": enc(logits),
        "attention": enc(weights) if weights is not None else None,
        "loss": loss.item(),
        "grads": {k: enc(v) for k, v in grads.items()},
        "adam": {"lr": 1e-2, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "losses": losses},
    }


CASES = [(cell, variant) for cell in ("rnn", "gru", "lstm")
         for variant in ("plain", "dot", "general_tanh", "additive_tanh")]


def main():
    cases = []
    for i, (cell, variant) in enumerate(CASES):
        torch.manual_seed(2000 + i)
        cases.append(case(cell, variant))
    dump = lambda o: json.dumps(o, indent=None, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = ('{"generator":' + dump("tests/reference/gen_seq2seq.py") + ',"torch":' + dump(str(torch.__version__))
            + ',"cases":[\n' + ",\n".join(dump(c) for c in cases) + "\n]}\n")
    json.loads(text)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"gen_seq2seq: {len(cases)} cases, {len(text.encode())} bytes -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
