"""The PyTorch column of the attention-kernel tables of `npm run bench` (bench/bench.mjs runs it with
/usr/bin/python3 when that can import torch). The same computations as the C++ core, batch 1, D = 64:

  scaled:  weights = softmax(Q Kᵀ / √D), output = weights V                    (attention.h)
  mha:     Q, K, V = x Wqᵀ + bq, …; 4 heads of 16; scaled attention per head;
           output = concat(heads) Woᵀ + bo                                      (§3.6)

forward alone, and forward + backward (gradients of every input and weight), one thread.
Usage: torch_bench.py N [N ...]; prints one JSON object per measurement, then {"torch": …}.
"""
import json
import math
import sys

import torch

from torch_common import describe, time_it

D, HEADS = 64, 4


def scaled(q, k, v):
    weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
    return weights @ v


def mha(x, p):
    B, N, _ = x.shape
    split = lambda t: t.view(B, N, HEADS, D // HEADS).transpose(1, 2)  # (B, H, N, Dh)
    q, k, v = (split(x @ p[w].t() + p[b]) for w, b in (("wq", "bq"), ("wk", "bk"), ("wv", "bv")))
    context = scaled(q, k, v).transpose(1, 2).reshape(B, N, D)
    return context @ p["wo"].t() + p["bo"]


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [16, 64, 256, 1024]
    gen = torch.Generator().manual_seed(42)
    rand = lambda *shape: torch.randn(*shape, generator=gen, requires_grad=True)
    for n in sizes:
        q, k, v, dout = rand(1, n, D), rand(1, n, D), rand(1, n, D), torch.randn(1, n, D, generator=gen)
        # Weights N(0, 1/D), nn.Linear's scale, as bench_native.cpp (N(0, 1) saturates the softmax).
        params = {name: (torch.randn(D, D, generator=gen) if name.startswith("w") else torch.randn(D, generator=gen))
                  .div_(math.sqrt(D)).requires_grad_()
                  for name in ("wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo")}
        inputs = [q, k, v] + list(params.values())

        def fwd_scaled():
            with torch.no_grad():
                scaled(q, k, v)

        def fwd_mha():
            with torch.no_grad():
                mha(q, params)

        def fwd_bwd(run):
            return lambda: torch.autograd.grad(run(), inputs, dout, allow_unused=True)

        for measure, fn in (("scaled_forward", fwd_scaled),
                            ("scaled_forward_backward", fwd_bwd(lambda: scaled(q, k, v))),
                            ("mha_forward", fwd_mha),
                            ("mha_forward_backward", fwd_bwd(lambda: mha(q, params)))):
            print(json.dumps({"measure": measure, "N": n, "D": D, **time_it(fn)}), flush=True)
    print(json.dumps({"torch": describe()}))


if __name__ == "__main__":
    main()
