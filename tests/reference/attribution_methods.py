"""The attribution methods both attribution generators compute (gen_attribution.py for the recurrent
translators, gen_transformer_attribution.py for the Transformer), by PyTorch autograd, and the file they write.

For output word t, f_t = log softmax(logits[t])[y_t], with the source embeddings x (S, E) given:

    gradient x input:      a[t, s] = sum_e x[s, e] * df_t/dx[s, e]
    integrated gradients:  a[t, s] = sum_e x[s, e] * (1/n) sum_{k=1..n} df_t/dx[s, e] at ((k - 1/2)/n) x

(zero-embedding baseline, midpoint rule), with f_t(x) and f_t(0), and Spearman's rho between each attention row
and each attribution row (average ranks for ties; null when either row is constant). Computed on one thread with
PyTorch's deterministic algorithms, so that a generator's output is the same from run to run.

Per case: {"name", "config", "src", "target", "params", "ig_steps", "log_prob", "baseline_log_prob",
"gradient_input", "integrated_gradients", "attention", "rank_correlation": {"gradient_input": [...],
"integrated_gradients": [...]}}, tensors as {"shape": [...], "data": [flat row-major values]}.
"""
import json
import os

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

# Every case: a source of S tokens, a target of T words (<eos> last), integrated gradients in IG_STEPS steps.
S, T, IG_STEPS = 5, 4, 8


def grads_at(log_probs, x):
    """(T, S, E): df_t/dx at x, one autograd call per output word; log_probs(x) gives f (T,)."""
    x = x.clone().requires_grad_(True)
    f = log_probs(x)
    return torch.stack([torch.autograd.grad(f[t], x, retain_graph=True)[0] for t in range(len(f))])


def average_ranks(x):
    order = sorted(range(len(x)), key=lambda i: x[i])
    r = [0.0] * len(x)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = average_ranks(a), average_ranks(b)
    n = len(a)
    m = (n + 1) / 2
    cov = sum((x - m) * (y - m) for x, y in zip(ra, rb))
    va = sum((x - m) ** 2 for x in ra)
    vb = sum((y - m) ** 2 for y in rb)
    return None if va == 0 or vb == 0 else cov / (va * vb) ** 0.5


def attribution_fields(log_probs, x, ig_steps, attention, enc, log_prob_digits=None):
    """A case's fields from "ig_steps" on: f_t(x), f_t(0), both methods' scores (T, S), the attention (T, S) or
    None, and rho. log_probs(x) gives f (T,); log_prob_digits, when given, rounds f_t to that many significant
    digits."""
    f_x = log_probs(x)
    f_0 = log_probs(torch.zeros_like(x))
    gxi = (x * grads_at(log_probs, x)).sum(-1)                                    # (T, S)
    mean = sum(grads_at(log_probs, ((k - 0.5) / ig_steps) * x) for k in range(1, ig_steps + 1)) / ig_steps
    ig = (x * mean).sum(-1)

    rho = None
    if attention is not None:
        w = attention.detach().tolist()
        T = len(w)
        rho = {"gradient_input": [spearman(gxi[t].tolist(), w[t]) for t in range(T)],
               "integrated_gradients": [spearman(ig[t].tolist(), w[t]) for t in range(T)]}
    rounded = (lambda v: v) if log_prob_digits is None else (lambda v: float(f"%.{log_prob_digits}g" % v))
    return {
        "ig_steps": ig_steps,
        "log_prob": [rounded(v) for v in f_x.detach().tolist()],
        "baseline_log_prob": [rounded(v) for v in f_0.detach().tolist()],
        "gradient_input": enc(gxi), "integrated_gradients": enc(ig),
        "attention": enc(attention) if attention is not None else None,
        "rank_correlation": rho,
    }


def write_cases(generator, out, cases):
    """shared/reference/<out>: one case a line, after the generator's path and torch's version."""
    path = os.path.join(ROOT, "shared", "reference", out)
    dump = lambda o: json.dumps(o, indent=None, separators=(",", ":"), allow_nan=False)  # noqa: E731
    text = ('{"generator":' + dump(f"tests/reference/{generator}.py") + ',"torch":'
            + dump(str(torch.__version__)) + ',"cases":[\n' + ",\n".join(dump(c) for c in cases) + "\n]}\n")
    json.loads(text)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{generator}: {len(cases)} cases, {len(text.encode())} bytes -> {os.path.relpath(path, ROOT)}")
