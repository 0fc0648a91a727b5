// `translate --input` against separate calls: the time to translate LINES sentences with the model
// loaded once, and with one `attention-lab translate` process per sentence. The separate calls are
// timed on CALLS sentences (default 20) and scaled to LINES, as each call costs the same start-up
// (Node, the wasm core, the model file) plus one translation. Not a test: nothing asserts.
//   node bench/cli-batch.mjs                  1000 lines, 20 separate calls scaled to 1000
//   BENCH_LINES=1000 BENCH_CALLS=1000 node bench/cli-batch.mjs   every call really made
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOTE_PAIRS } from '../tests/wasm/case-runner.mjs';

const BIN = fileURLToPath(new URL('../bin/attention-lab.mjs', import.meta.url));
const LINES = Number(process.env.BENCH_LINES ?? 1000);
const CALLS = Math.min(LINES, Number(process.env.BENCH_CALLS ?? 20));

const dir = mkdtempSync(join(tmpdir(), 'attention-lab-bench-'));
const cli = (...args) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};
const seconds = (f) => { const t0 = performance.now(); f(); return (performance.now() - t0) / 1000; };

try {
  cli('train', '--task', 'note', '--hidden', '32', '--steps', '300', '--progress', 'none', '--out', 'note.model');
  const sentences = Array.from({ length: LINES }, (_, i) => NOTE_PAIRS[i % NOTE_PAIRS.length][0]);
  writeFileSync(join(dir, 'lines.txt'), `${sentences.join('\n')}\n`);
  const batch = seconds(() => cli('translate', '--model', 'note.model', '--input', 'lines.txt'));
  const batchJson = seconds(() => cli('translate', '--model', 'note.model', '--input', 'lines.txt', '--json'));
  const calls = seconds(() => { for (let i = 0; i < CALLS; i++) cli('translate', '--model', 'note.model', sentences[i]); });
  const perCall = calls / CALLS;
  const separate = perCall * LINES;
  console.log(`translate --input, ${LINES} lines (the note model, hidden 32), model loaded once:`);
  console.log(`  text:   ${batch.toFixed(2)} s (${((batch / LINES) * 1000).toFixed(2)} ms a line)`);
  console.log(`  --json: ${batchJson.toFixed(2)} s`);
  console.log(`separate calls: ${CALLS} made in ${calls.toFixed(2)} s, ${(perCall * 1000).toFixed(0)} ms each` +
    (CALLS < LINES ? `; ${LINES} calls extrapolated: ${separate.toFixed(1)} s` : ''));
  console.log(`--input is ${(separate / batch).toFixed(0)}× faster than ${LINES} separate calls, and takes ${(batch / perCall).toFixed(1)} separate calls' time`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
