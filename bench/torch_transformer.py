"""The PyTorch column of the Transformer measure of `npm run bench` (bench/lib/transformer.mjs runs it with
/usr/bin/python3 when that can import torch), one thread: seconds per training step (forward, backward, gradient
clipping to norm 1, torch.optim.Adam) of tests/reference/transformer_module.py's module (nn.Embedding · √d_model +
sinusoidal positions, nn.Transformer with dropout 0 and batch_first, nn.Linear; the one our C++ core matches
number for number), in float32, training mode. It trains on the very dates our sampler draws, from
`bench_native task-data dates <count> <file>`, batched as batch.h lays them out (bench/torch_seq2seq.py's
batches); batches are prepared up front, so the timing is the training step alone, as in ours.

Usage: torch_transformer.py <dates-data.json> <recipes.json> [scale]; recipes.json is a list of
{name, layers, heads, dModel, dFF, normFirst, batchSize}. Prints one JSON object (last line):
{version, threads, blas, steps: {name: {median_s, min_s, max_s, cpu_s, steps_per_sample, parameters,
first_loss, final_loss}}}.
"""
import os
import sys

import torch
import torch.nn.functional as F

from torch_common import time_recipes
from torch_seq2seq import batches

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
from transformer_module import TransformerSeq2Seq, positional_table  # noqa: E402


class BenchTransformer(TransformerSeq2Seq):
    """The reference module with its positional table computed once (256 positions), as ours."""

    def __init__(self, *args):
        super().__init__(*args)
        self.register_buffer("pe", positional_table(256, self.d_model).float())

    def positions(self, length):
        return self.pe[:length]


class Trainer:
    def __init__(self, data, r):
        torch.manual_seed(1)
        self.vt = len(data["target_vocab"])
        self.model = BenchTransformer(len(data["source_vocab"]), self.vt, r["dModel"], r["heads"], r["layers"],
                                        r["dFF"], r["normFirst"])
        self.model.train()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        stream = batches(data, r["batchSize"])
        self.batches = []
        for _ in range(min(len(data["train"]["src"]) // r["batchSize"], 200)):
            src, src_len, t_in, t_out = next(stream)
            src_pad = torch.arange(src.shape[1]).unsqueeze(0) >= src_len.unsqueeze(1)
            self.batches.append((src, t_in, t_out, src_pad, t_in == 0))
        self.i = 0

    def train(self, steps):
        for _ in range(steps):
            src, t_in, t_out, src_pad, tgt_pad = self.batches[self.i % len(self.batches)]
            self.i += 1
            self.opt.zero_grad()
            logits = self.model(src, t_in, src_pad, tgt_pad)
            loss = F.cross_entropy(logits.reshape(-1, self.vt), t_out.reshape(-1), ignore_index=0)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
        return loss.item()


if __name__ == "__main__":
    time_recipes(sys.argv, Trainer)
