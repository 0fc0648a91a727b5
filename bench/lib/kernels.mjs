// Part "kernels" of `npm run bench`: the wasm kernels alone (bench/wasm_kernels.cpp, built here
// with emcc -O3 -msimd128 into build/wasm-bench): the peak GFLOP/s of a pure register-blocked
// f32x4 loop on this machine, then the GEMM kernels at the attention's and the recipes' shapes,
// each as a share of that peak. Skipped with a note when emcc is missing.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fmt, root, table } from './common.mjs';

export function kernelsPart() {
  const out = `${root}build/wasm-bench/kernels.cjs`;
  try {
    mkdirSync(`${root}build/wasm-bench`, { recursive: true });
    execFileSync('emcc', ['-O3', '-msimd128', '-std=c++17', '-DNDEBUG', `-I${root}wasm/src`, '-I/usr/include/eigen3',
      `${root}bench/wasm_kernels.cpp`, `${root}wasm/src/kernels/gemm.cpp`, '-sENVIRONMENT=node', '-sALLOW_MEMORY_GROWTH=1',
      '-sSINGLE_FILE=1', '-o', out], { stdio: 'ignore', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
  } catch (e) {
    console.log(`\nKernels part skipped: emcc failed (${e.message.split('\n')[0]}).`);
    return { skipped: 'emcc failed' };
  }
  const rows = execFileSync(process.execPath, [out], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
  const peak = rows.find((r) => r.kernel === 'peak_register_loop');
  table('wasm kernels alone (no JS API): GFLOP/s and share of the register-loop peak',
    'Peak: the GEMM micro-kernel alone, 8 accumulators c += a·b (f32x4 mul + add, no FMA in SIMD128) over L1-resident panels, no packing, edges or stores; its best batch of 7 (the kernels: their median).',
    ['kernel', 'M × N × K', 'GFLOP/s', 'share of peak'],
    rows.map((r) => [r.kernel, r.kernel === peak.kernel ? '–' : `${r.M} × ${r.N} × ${r.K}`, fmt(r.gflops, 2), `${fmt((100 * r.gflops) / peak.gflops, 0)}%`]));
  return { peak_gflops: peak.gflops, rows };
}
