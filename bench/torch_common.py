"""Shared by bench/torch_bench.py and bench/torch_seq2seq.py: the timing scheme of bench/bench.mjs
(a warm-up, then the median and spread of repeated samples) and what torch runs on (version, BLAS)."""
import os
import re
import time

import torch

torch.set_num_threads(1)  # the reference: one thread, as our wasm build has


def time_it(fn, samples=9, min_sample_s=0.02):
    """Median, min and max seconds per call of fn, each sample ≥ min_sample_s, after a warm-up."""
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    inner = max(1, int(min_sample_s / max(first, 1e-7)))
    for _ in range(inner):
        fn()
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return stats(times)


def stats(times):
    times = sorted(times)
    return {"median_s": times[len(times) // 2], "min_s": times[0], "max_s": times[-1]}


def blas():
    """The BLAS library this process really loaded (after a matmul), and torch's BLAS_INFO."""
    torch.ones(8, 8) @ torch.ones(8, 8)
    loaded = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if re.search(r"blas|mkl", os.path.basename(path)):
                loaded.add(os.path.realpath(path))
    info = re.search(r"BLAS_INFO=([^,]+)", torch.__config__.show())
    names = sorted(loaded) or ["none loaded"]
    kind = "OpenBLAS" if any("openblas" in p for p in names) else "MKL" if any("mkl" in p for p in names) \
        else "reference BLAS (netlib)" if any("/blas/libblas" in p for p in names) else "unknown"
    return f"{kind}: {', '.join(names)} (BLAS_INFO={info.group(1) if info else '?'})"


def describe():
    return {"version": torch.__version__, "threads": torch.get_num_threads(), "blas": blas()}
