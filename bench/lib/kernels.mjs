// Part "kernels" of `npm run bench`: the wasm kernels alone (bench/wasm_kernels.cpp, built here
// into build/wasm-bench twice: emcc -O3 -msimd128, and the FMA build's way, clang-16 with relaxed
// SIMD linked without binaryen, docs/build.md): the peak GFLOP/s of a pure register-blocked f32x4
// loop on this machine, then the GEMM kernels at the attention's and the recipes' shapes, each as
// a share of that build's peak. The FMA build runs under --experimental-wasm-relaxed-simd (Node 20);
// without clang-16 it is left out with a note, without emcc the part is skipped.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fmt, root, table } from './common.mjs';

// emcc runs binaryen's tools from PATH: not the npm binaryen's in node_modules/.bin (scripts/build-wasm.sh)
const PATH = (process.env.PATH ?? '').split(':').filter((dir) => !dir.endsWith('/node_modules/.bin')).join(':');
const env = { ...process.env, PATH, NODE_PATH: '/usr/share/nodejs' };
const FLAGS = ['-O3', '-msimd128', '-std=c++17', '-DNDEBUG', `-I${root}wasm/src`, '-I/usr/include/eigen3'];
const SOURCES = [`${root}bench/wasm_kernels.cpp`, `${root}wasm/src/kernels/gemm.cpp`];
// NODERAWFS: the replay reads its shapes file from the disk (replayProducts)
const LINK = ['-sENVIRONMENT=node', '-sALLOW_MEMORY_GROWTH=1', '-sSINGLE_FILE=1', '-sNODERAWFS=1'];

function buildPlain(dir) {
  const out = `${dir}/kernels.cjs`;
  execFileSync('emcc', [...FLAGS, ...SOURCES, ...LINK, '-o', out], { stdio: 'ignore', env });
  return out;
}

function buildFma(dir) {
  const out = `${dir}/kernels_fma.cjs`;
  const objects = SOURCES.map((source, i) => {
    const object = `${dir}/kernels_fma.${i}.o`;
    execFileSync(`${root}scripts/em++-relaxed-simd.sh`, ['em++', ...FLAGS, '-c', source, '-o', object], { stdio: 'ignore', env });
    return object;
  });
  execFileSync('emcc', ['-msimd128', ...objects, ...LINK, '-O0', '-sWASM_BIGINT', '-sASSERTIONS=0', '-o', out], { stdio: 'ignore', env });
  return out;
}

const run = (file, flags = []) =>
  execFileSync(process.execPath, [...flags, file], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));

export function kernelsPart() {
  const dir = `${root}build/wasm-bench`;
  let plain;
  try {
    mkdirSync(dir, { recursive: true });
    plain = buildPlain(dir);
  } catch (e) {
    console.log(`\nKernels part skipped: emcc failed (${e.message.split('\n')[0]}).`);
    return { skipped: 'emcc failed' };
  }
  let fma = null, fmaSkipped = null;
  try {
    fma = buildFma(dir);
  } catch (e) {
    fmaSkipped = `the FMA build failed (${e.message.split('\n')[0]}); clang-16 installed?`;
  }
  const builds = [{ build: 'SIMD128', rows: run(plain) }];
  if (fma) builds.push({ build: 'FMA (relaxed SIMD)', rows: run(fma, ['--experimental-wasm-relaxed-simd']) });
  const peakOf = (rows) => rows.find((r) => r.kernel === 'peak_register_loop');
  table('wasm kernels alone (no JS API): GFLOP/s and share of each build\'s register-loop peak',
    'Peak: the GEMM micro-kernel alone, 8 accumulators c += a·b (SIMD128: f32x4 mul + add; FMA: one f32x4.relaxed_madd) over L1-resident panels, no packing, edges or stores; its best batch of 7 (the kernels: their median). Both builds in this run.',
    ['kernel', 'M × N × K', ...builds.flatMap((b) => [`${b.build} GFLOP/s`, `${b.build} share of peak`]), ...(fma ? ['FMA ÷ SIMD128'] : [])],
    builds[0].rows.map((r, i) => {
      const cells = builds.flatMap((b) => {
        const x = b.rows[i];
        return [fmt(x.gflops, 2), `${fmt((100 * x.gflops) / peakOf(b.rows).gflops, 0)}%`];
      });
      return [r.kernel, r.kernel === 'peak_register_loop' ? '–' : `${r.M} × ${r.N} × ${r.K}`, ...cells,
        ...(fma ? [`${fmt(builds[1].rows[i].gflops / r.gflops, 2)}×`] : [])];
    }));
  if (fmaSkipped) console.log(`\nFMA column left out: ${fmaSkipped}`);
  const peaks = Object.fromEntries(builds.map((b) => [b.build, peakOf(b.rows).gflops]));
  return { peak_gflops: peakOf(builds[0].rows).gflops, fma_peak_gflops: fma ? peakOf(builds[1].rows).gflops : null, peaks,
    rows: builds[0].rows, fma_rows: fma ? builds[1].rows : null, fma_skipped: fmaSkipped, builds: { plain, fma } };
}

/**
 * A training step's products alone: the shapes the native step ran (bench_steps.h's gemm_shapes,
 * {steps, shapes: [[op, M, N, K, count], …]}) replayed in the kernels builds of kernelsPart
 * (`builds`), each with nothing else between them. Seconds per step, best of 7: {plain_s, fma_s}
 * (null for a build that is missing).
 * @param {string} name  a file name for the shapes, in build/wasm-bench
 * @param {{steps: number, shapes: [string, number, number, number, number][]}} gemmShapes
 * @param {{plain: string, fma: string | null}} builds
 */
export function replayProducts(name, gemmShapes, builds) {
  // wasm_kernels.cpp replays the shapes file of the folder it runs in
  const cwd = `${root}build/wasm-bench/replay-${name}`;
  mkdirSync(cwd, { recursive: true });
  writeFileSync(`${cwd}/replay-shapes.txt`, `steps ${gemmShapes.steps}\n${gemmShapes.shapes.map((s) => s.join(' ')).join('\n')}\n`);
  const once = (build, flags) => (build ? JSON.parse(execFileSync(process.execPath, [...flags, build], { encoding: 'utf8', cwd })).best_s : null);
  return { plain_s: once(builds.plain, []), fma_s: once(builds.fma, ['--experimental-wasm-relaxed-simd']) };
}
