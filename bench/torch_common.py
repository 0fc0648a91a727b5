"""Shared by the bench/torch_*.py scripts: the timing schemes of bench/bench.mjs (a warm-up, then the median and
spread of repeated samples; per_step for the training steps) and what torch runs on (version, BLAS)."""
import json
import os
import re
import time

import torch

torch.set_num_threads(1)  # the goals' reference: one thread, as our wasm build has


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


def per_step(make, warmup, block, reps):
    """A training step's wall-clock seconds (median, min, max) and the process's CPU seconds (median: on a shared
    machine the CPU time is what the step itself costs), from `reps` blocks of `block` steps after `warmup` steps.
    make() gives an object with .model and .train(steps) → the last step's loss."""
    t = make()
    first_loss = t.train(1)  # step 0's loss, ≈ ln(vocabulary) from a fresh model
    if warmup > 1:
        t.train(warmup - 1)
    samples, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        loss = t.train(block)
        samples.append((time.perf_counter() - t0) / block)
        cpu.append((time.process_time() - c0) / block)
    return {**stats(samples), "cpu_s": stats(cpu)["median_s"], "steps_per_sample": block,
            "parameters": sum(p.numel() for p in t.model.parameters()), "first_loss": first_loss, "final_loss": loss}


def time_recipes(argv, make):
    """argv: <data.json> <recipes.json> [scale]. Prints one JSON object, {version, threads, blas, steps: {recipe
    name: per_step's figures}}, from 7 blocks of 20 steps after 10 (× scale) of make(data, recipe)'s trainer."""
    data = json.load(open(argv[1]))
    recipes = json.load(open(argv[2]))
    scale = float(argv[3]) if len(argv) > 3 else 1.0
    n = lambda x: max(1, round(x * scale))  # noqa: E731
    out = {**describe(), "steps": {}}
    for r in recipes:
        out["steps"][r["name"]] = per_step(lambda: make(data, r), n(10), n(20), 7)
    print(json.dumps(out))


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
