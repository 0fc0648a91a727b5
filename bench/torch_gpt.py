"""The PyTorch column of the GPT measure of `npm run bench` (bench/lib/gpt.mjs runs it with /usr/bin/python3 when
that can import torch), one thread: seconds per training step (forward, backward, torch.optim.Adam at the
session's rate: GptSession::train's step, which neither clips nor decays) of tests/reference/gpt_module.py's GPT
(nanoGPT's module, the one our C++ core matches number for number), in float32, training mode. It trains on the
very windows and targets (−1 ignored) our session's sampler draws, from `bench_native gpt-data <recipes.json> <steps> <file>`; batches are
prepared up front, so the timing is the training step alone, as in ours.

Usage: torch_gpt.py <gpt-data.json> <recipes.json> [scale]; recipes.json is a list of {name, blockSize, layers,
heads, dModel, batchSize, learningRate, ...}. Prints one JSON object (last line): {version, threads, blas,
steps: {name: {median_s, min_s, max_s, cpu_s, steps_per_sample, parameters, first_loss, final_loss}}}.
"""
import os
import sys

import torch

from torch_common import time_recipes

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
from gpt_module import GPT  # noqa: E402


def nanogpt_init(model, layers):
    """The weights ours starts from (GptModel::reset_parameters, nanoGPT's init): every matrix and embedding
    N(0, 0.02²), the c_proj weights N(0, (0.02/√(2L))²), biases 0; LayerNorms keep 1 and 0."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("c_proj.weight"):
                p.normal_(0.0, 0.02 / (2 * layers) ** 0.5)
            elif name.endswith("bias"):
                p.zero_()
            elif p.dim() == 2:
                p.normal_(0.0, 0.02)


class Trainer:
    def __init__(self, data, r):
        torch.manual_seed(1)
        self.model = GPT(data["vocab"], r["blockSize"], r["layers"], r["heads"], r["dModel"])
        nanogpt_init(self.model, r["layers"])
        for block in self.model.transformer.h:
            block.attn.keep_attention = False
        self.model.train()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=r["learningRate"])
        inputs = torch.tensor(data["inputs"], dtype=torch.long).split(data["batch_size"])
        targets = torch.tensor(data["targets"], dtype=torch.long).split(data["batch_size"])
        self.batches = list(zip(inputs, targets))
        self.i = 0

    def train(self, steps):
        for _ in range(steps):
            idx, targets = self.batches[self.i % len(self.batches)]
            self.i += 1
            self.opt.zero_grad()
            _, loss = self.model(idx, targets)
            loss.backward()
            self.opt.step()
        return loss.item()


if __name__ == "__main__":
    time_recipes(sys.argv, lambda data, r: Trainer(data[r["name"]], r))
