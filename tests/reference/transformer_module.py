"""The reference Transformer translator in PyTorch, the module AttentionLab's C++ core matches number for number:
nn.Embedding * sqrt(d_model) + sinusoidal positions, nn.Transformer (dropout 0, batch_first) and nn.Linear.
gen_transformer.py and gen_safetensors.py make golden files with it; bench/torch_transformer.py times it.

    pe[pos, 2i] = sin(pos / 10000^(2i/d)), pe[pos, 2i+1] = cos(pos / 10000^(2i/d))
"""
import math

import torch
import torch.nn as nn


def positional_table(length, d):
    pe = torch.zeros(length, d, dtype=torch.float64)
    pos = torch.arange(length, dtype=torch.float64).unsqueeze(1)
    i = torch.arange(0, d, 2, dtype=torch.float64)
    angle = pos / torch.pow(10000.0, i / d)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)[:, : d // 2]
    return pe


class TransformerSeq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d_model, nhead, layers, dim_ff, norm_first):
        super().__init__()
        self.d_model = d_model
        self.src_embedding = nn.Embedding(src_vocab, d_model)
        self.tgt_embedding = nn.Embedding(tgt_vocab, d_model)
        self.transformer = nn.Transformer(d_model, nhead, layers, layers, dim_ff, dropout=0.0,
                                          batch_first=True, norm_first=norm_first)
        self.out = nn.Linear(d_model, tgt_vocab)

    def positions(self, length):
        """pe[:length] in the weights' dtype, computed in float64 (bench/torch_transformer.py keeps one table)."""
        return positional_table(length, self.d_model).to(self.out.weight.dtype)

    def forward(self, src, tgt_in, src_pad, tgt_pad):
        pe = self.positions(max(src.shape[1], tgt_in.shape[1]))
        x = self.src_embedding(src) * math.sqrt(self.d_model) + pe[: src.shape[1]]
        y = self.tgt_embedding(tgt_in) * math.sqrt(self.d_model) + pe[: tgt_in.shape[1]]
        t = tgt_in.shape[1]
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        h = self.transformer(x, y, tgt_mask=causal, src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
                             memory_key_padding_mask=src_pad)
        return self.out(h)
