#!/usr/bin/env node
// §5's generation speed as the page has it: characters per second of the step-by-step generation
// in a page with one <gpt-demo> (web/examples/test-one-gpt.html, the built site under vite preview,
// Debian's Chromium via playwright-core). Each character is one press of "Next character": a
// request to the worker that samples one character with every layer's and head's attention kept
// (the step's top candidates and attention both drawn), on the model of the default size just
// created (step 0: a step costs the same trained or not). The loop runs inside the page, so
// no DevTools round trip is counted; it waits for each character before pressing again, as a
// reader must. Then Write the poem, WRITES times a round: one request that draws on to the poem's end
// (every step's candidates and attention kept), timed from the press to the frame that shows it.
// Beyond the model's context (32 characters) each step reads the last 32.
// Printed beside the goal of 200 characters per second, with the CPU time the browser's processes
// spent per character (from /proc: on a machine shared with other jobs the wall-clock rate is
// theirs too, the CPU time much less so) and the main thread's share of it (DevTools' TaskDuration).
// Then the model's own share: the same steps in Node (the GPT build, this process, CPU time), each
// a sample call that reads the last 32 characters as the page's, and all of them in one call (the
// key/value cache kept from step to step).
// Not a test: nothing asserts. Build first (npm run build:web).
//   node bench/gpt-generate-speed.mjs [characters] [rounds]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../tests/e2e/harness.mjs';
import { distDir, startPreview } from '../scripts/serve.mjs';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';
import { cpuSeconds, fmt, root, stats } from './lib/common.mjs';

const GOAL = 200;
const WRITES = 10; // presses of Write the poem per round
const TICKS = 100; // USER_HZ: /proc's CPU times are in these

/** CPU seconds (user + system) of the descendants of process `pid` (not its own), from /proc. */
function childrenCpuSeconds(pid) {
  const stats = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      // the fields after the command's closing parenthesis: state ppid … utime(14) stime(15)
      const fields = readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      return [{ pid: Number(d), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
    } catch {
      return []; // ended meanwhile
    }
  });
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of stats) if (!tree.has(p.pid) && tree.has(p.ppid)) grew = tree.add(p.pid) !== null;
  }
  return stats.filter((p) => p.pid !== pid && tree.has(p.pid)).reduce((a, p) => a + p.ticks, 0) / TICKS;
}
const PAGE = '/examples/test-one-gpt.html';
const chars = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 3);
if (!existsSync(`${distDir}${PAGE}`)) throw new Error(`${distDir}${PAGE} is missing: run npm run build:web first`);

const server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.setDefaultTimeout(120_000);
  await page.goto(new URL(PAGE, server.url).href);
  const demo = page.locator('gpt-demo');
  await demo.locator('.gpt-section[data-samples="1"]').waitFor(); // the poems and the model at step 0
  const model = await demo.locator('.gpt-note').first().textContent();
  const seconds = [];
  const written = [];
  const cpu = [];
  const mainThread = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  // the browser's processes are this one's only children (the preview server runs in this one)
  const browserCpu = () => childrenCpuSeconds(process.pid);
  for (let round = 0; round < rounds; round++) {
    await demo.locator('[data-testid=gpt-restart]').click();
    const cpu0 = browserCpu();
    const main0 = await taskSeconds();
    // in the page: press Next, wait for the character (data-generated), press again
    const s = await page.evaluate(async (n) => {
      const root = document.querySelector('gpt-demo').shadowRoot;
      const next = root.querySelector('[data-testid=gpt-next]');
      const gen = root.querySelector('.gpt-generate');
      const t0 = performance.now();
      for (let i = 1; i <= n; i++) {
        const done = new Promise((resolve) => {
          const watch = new MutationObserver(() => {
            if (gen.dataset.generated === String(i)) {
              watch.disconnect();
              resolve();
            }
          });
          watch.observe(gen, { attributes: true, attributeFilter: ['data-generated'] });
        });
        next.click();
        await done;
      }
      return (performance.now() - t0) / 1000;
    }, chars);
    seconds.push(s);
    cpu.push(browserCpu() - cpu0);
    mainThread.push((await taskSeconds()) - main0);
    if (round === 0) console.log(`round 1 (warm-up included): ${fmt(chars / s, 0)} characters/s`);
    // Write the poem: one request per poem, drawn once; Start again before each
    const w = await page.evaluate(async (n) => {
      const root = document.querySelector('gpt-demo').shadowRoot;
      const write = root.querySelector('[data-testid=gpt-write]');
      const restart = root.querySelector('[data-testid=gpt-restart]');
      const gen = root.querySelector('.gpt-generate');
      let characters = 0;
      let ms = 0;
      for (let i = 0; i < n; i++) {
        restart.click();
        const done = new Promise((resolve) => {
          const watch = new MutationObserver(() => {
            if (gen.dataset.generated !== '0') {
              watch.disconnect();
              resolve();
            }
          });
          watch.observe(gen, { attributes: true, attributeFilter: ['data-generated'] });
        });
        const t0 = performance.now();
        write.click();
        await done;
        // the figures are drawn in the same task as data-generated is set; wait for the frame
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
        ms += performance.now() - t0;
        characters += Number(gen.dataset.generated);
      }
      return { characters, seconds: ms / 1000 };
    }, WRITES);
    written.push(w);
  }
  const text = await demo.locator('[data-testid=gpt-text]').textContent();
  const skip = rounds > 1 ? 1 : 0; // the first round warms the worker's code up
  const median = (xs) => stats(xs.slice(skip)).median_s;
  const rate = chars / median(seconds);
  const ms = (x) => fmt((x / chars) * 1000, 2);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  console.log(`model: ${model}`);
  console.log(`the last text (${Array.from(text).length} characters): ${text.slice(0, 60)}…`);
  console.log(`load average ${load} on ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm).length} cores`);
  console.log(`| generation in the page (one <gpt-demo>, every attention kept) | characters/s | ms per character (wall) | CPU ms per character (browser) | of it, main thread | goal |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  console.log(`| Next character × ${chars}, median of ${seconds.length - skip} rounds | ${fmt(rate, 0)} | ${ms(median(seconds))} | ${ms(median(cpu))} | ${ms(median(mainThread))} | ${GOAL}/s: ${rate >= GOAL ? 'met' : 'NOT met'} |`);
  const w = written.slice(skip);
  const wChars = w.reduce((a, x) => a + x.characters, 0);
  const wRate = wChars / w.reduce((a, x) => a + x.seconds, 0);
  console.log(`| Write the poem × ${WRITES * w.length} (${wChars} characters), ${w.length} rounds | ${fmt(wRate, 0)} | ${fmt(1000 / wRate, 2)} | | | ${GOAL}/s: ${wRate >= GOAL ? 'met' : 'NOT met'} |`);
} finally {
  await browser.close();
  await server.close();
}

// the model alone, in Node: ms of CPU per character
const lab = await loadAttentionLab({ variant: 'gpt' });
const session = lab.createGptSession({ text: readFileSync(`${root}build/poems/tang300.txt`, 'utf8') });
const options = { temperature: 0.8, topK: 20, topP: 1, maxNewTokens: 1, topCandidates: 5 };
const stepByStep = () => {
  let text = '床前';
  for (let i = 0; i < chars; i++) text += session.sample(Array.from(text).slice(-32).join(''), { ...options, seed: i }).generated;
};
stepByStep(); // warm-up
let c0 = cpuSeconds();
stepByStep();
const perStep = ((cpuSeconds() - c0) / chars) * 1000;
c0 = cpuSeconds();
session.sample('床前', { ...options, maxNewTokens: chars, seed: 1 });
const perCached = ((cpuSeconds() - c0) / chars) * 1000;
session.delete();
console.log(`\nthe model alone (Node, GPT build, CPU): ${fmt(perStep, 2)} ms per character step by step (the page's requests), ${fmt(perCached, 2)} ms in one call of ${chars} (cache kept)`);
