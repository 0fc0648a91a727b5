// The GPT part of `npm run bench`: one training step (a batch of windows drawn by the session's
// sampler, forward, backward, Adam) of the character-level GPT on §5's corpus (the regular Tang poems), native
// (bench_native gpt, GptSession::train), wasm (the 'gpt' variant's JS API train(n), the same loop;
// its plain build and, where this Node runs relaxed SIMD, its FMA build) and PyTorch (bench/torch_gpt.py: tests/reference/gpt_module.py's nanoGPT module, OpenBLAS, one
// thread, on the very windows our sampler draws), side by side in one run, wasm and PyTorch in
// turns (ROUNDS). The recipes: the
// session's default and a larger model, where PyTorch's per-operation overhead weighs less.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { FORTUNE_DIR, parseFortunePoems, poemsText } from '../../scripts/poems.mjs';
import { regularPoems } from '../../wasm/js/gpt-form.mjs';
import { fmt, root, runNative, spread, table, timeTraining } from './common.mjs';
import { torchGpt } from './peers.mjs';

const LARGER = { name: 'larger', layers: 4, heads: 4, dModel: 128, blockSize: 32, batchSize: 16 };
export const GPT_GOAL = 1.5; // wasm at least 1.5× faster per step than PyTorch (CPU time)
const ROUNDS = 5; // wasm, then PyTorch, this many times (below): a median of five rides out one slow round

// build/poems/tang300.txt (`npm run build:poems`), extracted here from Debian's fortunes-zh when missing.
function poemsFile() {
  const file = `${root}build/poems/tang300.txt`;
  if (!existsSync(file)) {
    const source = `${FORTUNE_DIR}/tang300`;
    if (!existsSync(source)) throw new Error(`the GPT part needs the Tang poems: ${source} is missing (install Debian's fortunes-zh)`);
    mkdirSync(`${root}build/poems`, { recursive: true });
    writeFileSync(file, poemsText(parseFortunePoems(readFileSync(source, 'utf8'), 'tang300')));
  }
  return file;
}

// Seconds per step (common.mjs's timeTraining: bench_gpt.cpp's scheme).
function wasmPerStep(lab, text, recipe, warmup, block) {
  const { name, corpus, ...config } = recipe;
  const session = lab.createGptSession({ text, seed: 1, ...config });
  try {
    return { recipe: name, ...timeTraining(session, warmup, block), parameters: session.info().parameters };
  } finally {
    session.delete();
  }
}

// The session's defaults, read from the session itself, and its vocabulary's size.
function sessionDefault(lab, text) {
  const session = lab.createGptSession({ text });
  const { config: c, vocab } = session.info();
  session.delete();
  const recipe = { name: 'poems default', heldOut: c.heldOut, blockSize: c.blockSize, layers: c.layers, heads: c.heads, dModel: c.dModel,
    batchSize: c.batchSize, learningRate: c.learningRate, warmup: c.warmup };
  return { recipe, vocab: vocab.length };
}

// gptLab: loadAttentionLab({ variant: 'gpt', fma: false }); gptFmaLab: its FMA build, or null.
export function gptPart(gptLab, gptFmaLab, nativeBinary, scale) {
  const n = (x) => Math.max(1, Math.round(x * scale));
  // §5's corpus: the regular poems, as the page and `train --task poems` read them
  const text = regularPoems(readFileSync(poemsFile(), 'utf8'));
  const dir = `${root}build/native-bench`;
  const corpus = `${dir}/tang300-form.txt`;
  writeFileSync(corpus, text);
  const { recipe: base, vocab } = sessionDefault(gptLab, text);
  const recipes = [base, { ...base, ...LARGER }].map((r) => ({ ...r, corpus }));
  const recipesFile = `${dir}/gpt-recipes.json`, dataFile = `${dir}/gpt-data.json`;
  writeFileSync(recipesFile, JSON.stringify(recipes));
  const native = runNative(nativeBinary, ['gpt', recipesFile, scale]);
  // PyTorch trains on every batch our session draws in the timed run (warm-up and 7 blocks)
  runNative(nativeBinary, ['gpt-data', recipesFile, n(10) + 7 * n(20), dataFile]);
  // wasm and PyTorch take turns, ROUNDS times, and each round's ratio pairs measurements taken
  // seconds apart: the machine's drift (this step read 7.2 to 9.9 ms within an hour) moves both
  // sides of a pair alike. Each recipe's row is its round with the median ratio.
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const wasm = recipes.map((r) => wasmPerStep(gptLab, text, r, n(10), n(20)));
    const wasmFma = recipes.map((r) => (gptFmaLab ? wasmPerStep(gptFmaLab, text, r, n(10), n(20)) : null));
    rounds.push({ wasm, wasmFma, torch: torchGpt(dataFile, recipesFile, scale) });
  }
  const torch = rounds[0].torch;
  const roundRatios = recipes.map((r, i) => rounds.map(({ wasm, wasmFma, torch: t }) => {
    const step = t.steps?.[r.name];
    return step ? step.cpu_s / (wasmFma[i] ?? wasm[i]).cpu_s : null;
  }));
  const medianRound = (i) => {
    const order = rounds.map((_, k) => k).sort((a, b) => (roundRatios[i][a] ?? 0) - (roundRatios[i][b] ?? 0));
    return order[order.length >> 1];
  };
  const wasm = recipes.map((_, i) => rounds[medianRound(i)].wasm[i]);
  const wasmFma = recipes.map((_, i) => rounds[medianRound(i)].wasmFma[i]);
  const torchStep = (r, i) => rounds[medianRound(i)].torch.steps?.[r.name] ?? null;
  const ms = (m) => (m ? `${fmt(m.median_s * 1e3, 2)} ± ${spread(m)}` : '–');
  const cpuMs = (m) => (m ? fmt(m.cpu_s * 1e3, 2) : '–');
  const ratio = (x) => (x ? `${fmt(x, 2)}×` : '–');
  const rows = recipes.map((r, i) => {
    const nat = native.find((m) => m.recipe === r.name) ?? null, w = wasm[i], f = wasmFma[i], t = torchStep(r, i);
    return { recipe: r, native: nat, wasm: w, wasm_fma: f, torch: t, wasm_vs_native: nat ? w.median_s / nat.median_s : null,
      torch_vs_wasm: t ? t.median_s / w.median_s : null, torch_vs_wasm_cpu: t ? t.cpu_s / w.cpu_s : null,
      torch_vs_fma_cpu: t && f ? t.cpu_s / f.cpu_s : null };
  });
  table('GPT: one training step (forward + backward + Adam) on the Tang poems',
    `The same recipes and windows on every side (vocabulary of ${vocab.toLocaleString('en-US')} characters); wall-clock ms per step (median ± spread of 7 blocks) and the process's CPU ms ` +
      `per step (median). "wasm" is the 'gpt' variant's plain build (SIMD128), "wasm FMA" its relaxed-SIMD build (the one engines with relaxed SIMD load). "PyTorch ÷ wasm": how many times faster wasm is, by wall clock and by CPU time (goal ≥ ${GPT_GOAL}×, judged on the FMA build where this Node runs it).`,
    ['recipe', 'parameters', 'native', 'wasm', 'wasm FMA', 'PyTorch (1 thread)', 'CPU: native', 'CPU: wasm', 'CPU: wasm FMA', 'CPU: PyTorch', 'wasm ÷ native', 'PyTorch ÷ wasm',
      'PyTorch ÷ wasm (CPU)', 'PyTorch ÷ wasm FMA (CPU)', `goal ≥ ${GPT_GOAL}× PyTorch (CPU)`],
    rows.map((r) => [
      `${r.recipe.name}: ${r.recipe.layers} layers, ${r.recipe.heads} heads, dModel ${r.recipe.dModel}, block ${r.recipe.blockSize}, batch ${r.recipe.batchSize}`,
      r.wasm.parameters.toLocaleString('en-US'), ms(r.native), ms(r.wasm), ms(r.wasm_fma), ms(r.torch), cpuMs(r.native), cpuMs(r.wasm), cpuMs(r.wasm_fma), cpuMs(r.torch),
      ratio(r.wasm_vs_native), ratio(r.torch_vs_wasm), ratio(r.torch_vs_wasm_cpu), ratio(r.torch_vs_fma_cpu),
      (r.torch_vs_fma_cpu ?? r.torch_vs_wasm_cpu) ? ((r.torch_vs_fma_cpu ?? r.torch_vs_wasm_cpu) >= GPT_GOAL ? 'met' : 'not met') : '–',
    ]));
  if (torch.skipped) console.log(`\nPyTorch column skipped: ${torch.skipped}`);
  else {
    console.log(`\nPyTorch ${torch.version}, ${torch.threads} thread, ${torch.blas}`);
    const each = recipes.map((r, i) => `${r.name} ${roundRatios[i].map((x) => ratio(x)).join(', ')}`).join('; ');
    console.log(`PyTorch ÷ wasm ${gptFmaLab ? 'FMA ' : ''}(CPU) in each of the ${ROUNDS} rounds (the table: the median round): ${each}`);
  }
  // The peers build the same model: the same parameter count, and step 0's loss near ln(vocabulary).
  for (const r of rows) {
    const count = (m) => (m ? `${m.parameters.toLocaleString('en-US')}${m.parameters === r.wasm.parameters ? ' (= ours)' : ' (≠ ours: not the same model)'}` : '–');
    console.log(`${r.recipe.name}: loss at step 0 (ln V = ${fmt(Math.log(vocab), 4)}): native ${fmt(r.native?.first_loss, 4)}, wasm ${fmt(r.wasm.first_loss, 4)}, ` +
      `PyTorch ${fmt(r.torch?.first_loss, 4)}; parameters: ours ${r.wasm.parameters.toLocaleString('en-US')}, native ${count(r.native)}, PyTorch ${count(r.torch)}`);
  }
  return { rows, vocab, torch: torch.skipped ? { skipped: torch.skipped } : { version: torch.version, blas: torch.blas } };
}
