// §1's run (web/src/sections/why-run.ts) against a lab whose worker calls the test answers by hand:
// a run replaced while one of its calls is still in the worker (the reader changed a setting) must
// not report that call's step afterwards, or the view shows the old run's step over the new one's 0.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { WhyRun } = await loadWeb('sections/why-run');

const SETTINGS = { cell: 'gru', hidden: 16, maxLen: 10, steps: 100, seed: 1 };

/** A lab whose models' train/evaluate calls wait in `pending` until the test answers them. */
function handLab() {
  const pending = [];
  const call = (kind, answer) => new Promise((resolve) => pending.push({ kind, answer: () => resolve(answer()) }));
  let step = 0;
  const model = () => ({
    train: (n) => call('train', () => ({ step: (step += n), losses: [1] })),
    evaluate: (o) => call('evaluate', () => ({ tokenAccuracy: 0.5, exactMatch: 0, tokenAccuracyByPosition: new Array(o.length + 1).fill(0.5) })),
    delete: async () => {},
  });
  return { pending, lab: { createSeq2Seq: async () => model() } };
}

/** Lets the run's awaits move on until it waits for the worker again (or has ended). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A run started on `lab` and past its first report, waiting for the worker; `reports`: the steps it reported. */
async function reportedOnce({ pending, lab }) {
  const reports = [];
  const run = new WhyRun(lab, SETTINGS, (s) => reports.push(s.step), (err) => assert.fail(err));
  run.start();
  while (reports.length < 1) {
    await settle();
    assert.ok(pending.length > 0, 'the run waits for no call');
    pending.shift().answer();
  }
  await settle();
  return { run, reports };
}

/** Answers every call the run makes until it makes none. */
async function answerAll(pending) {
  while (pending.length > 0) {
    pending.shift().answer();
    await settle();
  }
}

describe('§1 run', () => {
  for (const [kind, what] of [['train', 'a training'], ['evaluate', 'an evaluation']]) {
    test(`destroyed while ${what} call is in the worker, it reports nothing more`, async () => {
      const lab = handLab();
      const { pending } = lab;
      const { run, reports } = await reportedOnce(lab);
      while (pending[0].kind !== kind) {
        pending.shift().answer();
        await settle();
      }
      run.pause(); // the reader pauses, then changes a setting: the view destroys this run
      await run.destroy();
      const seen = reports.length;
      await answerAll(pending);
      assert.deepEqual(reports.slice(seen), [], 'reported after it was destroyed');
    });
  }

  test('every report has both curves at the same lengths (plain and attention are evaluated together)', async () => {
    const { pending, lab } = handLab();
    const seen = [];
    const run = new WhyRun(lab, { ...SETTINGS, maxLen: 30 }, (s) => seen.push(s.plain.map((x, i) => [x !== null, s.attention[i] !== null])), (err) => assert.fail(err));
    run.start();
    while (seen.length < 8) {
      await settle();
      assert.ok(pending.length > 0, 'the run waits for no call');
      pending.shift().answer();
    }
    run.pause();
    await answerAll(pending);
    for (const lengths of seen) for (const [plain, attention] of lengths) assert.equal(plain, attention, `plain and attention at different lengths: ${JSON.stringify(lengths)}`);
    assert.ok(seen.at(-1).every(([plain]) => plain), 'all four lengths measured by the eighth report');
  });

  test('paused, it reports the turn in the worker (the step it reached) and then stops', async () => {
    const lab = handLab();
    const { run, reports } = await reportedOnce(lab);
    run.pause();
    await answerAll(lab.pending);
    assert.equal(reports.length, 2, `one more report, then none: ${reports}`);
    assert.ok(reports[1] > reports[0], `the last turn's step: ${reports}`);
    assert.equal(run.running, false);
  });
});
