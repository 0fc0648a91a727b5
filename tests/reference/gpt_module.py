"""The reference GPT in PyTorch, the module AttentionLab's C++ core (wasm/src/gpt/model.h) matches number for
number: GPT-2's decoder-only form with nanoGPT's module and state-dict names (bias=True, dropout 0, lm_head tied to
wte). gen_gpt.py makes the golden files with it; bench/torch_gpt.py times it.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, C, H):
        super().__init__()
        self.c_attn = nn.Linear(C, 3 * C)
        self.c_proj = nn.Linear(C, C)
        self.H = H
        self.keep_attention = True  # gen_gpt.py reads the weights; the benchmark does not copy them
        self.att = None  # the last forward's weights (B, H, T, T)
        self.zero_heads = ()  # heads whose output is set to 0 before c_proj (an intervention)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.H, C // self.H).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.H)
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        att = F.softmax(att.masked_fill(~mask, float("-inf")), dim=-1)
        if self.keep_attention:
            self.att = att.detach().clone()
        y = att @ v  # (B, H, T, Dh)
        if self.zero_heads:
            keep = torch.ones(self.H, dtype=y.dtype)
            keep[list(self.zero_heads)] = 0
            y = y * keep.view(1, self.H, 1, 1)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.c_fc = nn.Linear(C, 4 * C)
        self.c_proj = nn.Linear(4 * C, C)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self, C, H):
        super().__init__()
        self.ln_1 = nn.LayerNorm(C)
        self.attn = CausalSelfAttention(C, H)
        self.ln_2 = nn.LayerNorm(C)
        self.mlp = MLP(C)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab, block_size, layers, heads, C):
        super().__init__()
        self.block_size = block_size
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab, C),
            wpe=nn.Embedding(block_size, C),
            h=nn.ModuleList([Block(C, heads) for _ in range(layers)]),
            ln_f=nn.LayerNorm(C),
        ))
        self.lm_head = nn.Linear(C, vocab, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # tied, as nanoGPT

    def forward(self, idx, targets=None):
        T = idx.shape[1]
        x = self.transformer.wte(idx) + self.transformer.wpe(torch.arange(T))
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                                                   ignore_index=-1)
        return logits, loss
