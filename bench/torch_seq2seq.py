"""The PyTorch column of the Seq2Seq measures of `npm run bench` (bench/bench.mjs runs it with
/usr/bin/python3 when that can import torch), one thread. The model is tests/reference/gen_seq2seq.py's
(the one our C++ core matches number for number): embedding + RNN/LSTM encoder over each source's own
length (pack_padded_sequence), decoder from its state, dot attention of every decoder output over the
encoder outputs, optional tanh(W_c [dec; ctx] + b_c), linear output, cross-entropy ignoring <pad>,
torch.optim.Adam(lr 1e-3). It trains on the very examples our sampler draws, from
`bench_native task-data <task> <count> <file>`.

  note:  RNN, hidden = embedding = 128, no tanh layer, batch 1 — µs per step (9 blocks of 200 steps after
         200 warm-up steps) and seconds for 400 steps of a fresh model (5 runs after one untimed run)
  dates: LSTM 64, embedding 64, tanh layer 64, batch 128 — seconds per step (7 blocks of 10 steps after 5)

Usage: torch_seq2seq.py <note-data.json> [<dates-data.json>] [scale]; prints one JSON object (last line).
"""
import json
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from torch_common import describe, stats

CELLS = {"rnn": nn.RNN, "lstm": nn.LSTM}


class Seq2Seq(nn.Module):
    def __init__(self, cell, hidden, embedding, vs, vt, attentional_tanh):
        super().__init__()
        self.enc_emb, self.dec_emb = nn.Embedding(vs, embedding), nn.Embedding(vt, embedding)
        self.enc_rnn = CELLS[cell](embedding, hidden, batch_first=True)
        self.dec_rnn = CELLS[cell](embedding, hidden, batch_first=True)
        self.attn_dense = nn.Linear(2 * hidden, hidden) if attentional_tanh else None
        self.out = nn.Linear(hidden if attentional_tanh else 2 * hidden, vt)

    def forward(self, src, src_len, tgt_in):
        packed = pack_padded_sequence(self.enc_emb(src), src_len, batch_first=True, enforce_sorted=False)
        enc_packed, state = self.enc_rnn(packed)
        enc_out, _ = pad_packed_sequence(enc_packed, batch_first=True, total_length=src.shape[1])
        dec_out, _ = self.dec_rnn(self.dec_emb(tgt_in), state)
        pad = torch.arange(src.shape[1]).unsqueeze(0) >= src_len.unsqueeze(1)
        scores = (dec_out @ enc_out.transpose(1, 2)).masked_fill(pad.unsqueeze(1), float("-inf"))
        context = torch.softmax(scores, dim=-1) @ enc_out
        feature = torch.cat([dec_out, context], dim=-1)
        if self.attn_dense is not None:
            feature = torch.tanh(self.attn_dense(feature))
        return self.out(feature)


def batches(data, size):
    """Padded batches as batch.h lays them out, in our sampler's order (cycled)."""
    src, tgt = data["train"]["src"], data["train"]["tgt"]
    i = 0
    while True:
        rows = [(src[(i + b) % len(src)], tgt[(i + b) % len(src)]) for b in range(size)]
        i += size
        S, T = max(len(s) for s, _ in rows), max(len(t) for _, t in rows) + 1
        s_ids, t_in, t_out = torch.zeros(size, S, dtype=torch.long), torch.zeros(size, T, dtype=torch.long), \
            torch.zeros(size, T, dtype=torch.long)
        for b, (s, t) in enumerate(rows):
            s_ids[b, :len(s)] = torch.tensor(s)
            t_in[b, 0] = 1
            t_in[b, 1:len(t) + 1] = torch.tensor(t)
            t_out[b, :len(t)] = torch.tensor(t)
            t_out[b, len(t)] = 2
        yield s_ids, torch.tensor([len(s) for s, _ in rows]), t_in, t_out


class Trainer:
    def __init__(self, data, cell, hidden, embedding, tanh, batch):
        torch.manual_seed(1)
        self.vt = len(data["target_vocab"])
        self.model = Seq2Seq(cell, hidden, embedding, len(data["source_vocab"]), self.vt, tanh)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        # Batches are prepared up front, so the timing is the training step alone, as in ours.
        stream = batches(data, batch)
        self.batches = [next(stream) for _ in range(min(len(data["train"]["src"]) // batch, 1000))]
        self.i = 0

    def train(self, steps):
        for _ in range(steps):
            src, src_len, t_in, t_out = self.batches[self.i % len(self.batches)]
            self.i += 1
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(src, src_len, t_in).reshape(-1, self.vt), t_out.reshape(-1),
                                   ignore_index=0)
            loss.backward()
            self.opt.step()
        return loss.item()


def per_step(make, warmup, block, reps):
    t = make()
    t.train(warmup)
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        loss = t.train(block)
        samples.append((time.perf_counter() - t0) / block)
    return {**stats(samples), "steps_per_sample": block, "final_loss": loss}


def total(make, steps, reps):
    samples = []
    for r in range(reps + 1):
        t = make()
        t0 = time.perf_counter()
        loss = t.train(steps)
        if r > 0:
            samples.append(time.perf_counter() - t0)
    return {**stats(samples), "steps_per_sample": steps, "final_loss": loss}


def main():
    note = json.load(open(sys.argv[1]))
    dates = json.load(open(sys.argv[2])) if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    scale = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    n = lambda x: max(1, round(x * scale))
    make_note = lambda: Trainer(note, "rnn", 128, 128, False, 1)
    out = {**describe(), "note_step_s": per_step(make_note, n(200), n(200), 9)}
    out["note_total_s"] = total(make_note, 400, 5)
    out["note_total_loss"] = out["note_total_s"]["final_loss"]
    if dates:
        out["dates_step_s"] = {**per_step(lambda: Trainer(dates, "lstm", 64, 64, True, 128), n(5), n(10), 7),
                               "batch": 128}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
