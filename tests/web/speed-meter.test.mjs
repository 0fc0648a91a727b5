// §4's speed meter (web/src/sections/speed-meter.ts) on a mock clock: one slow second does not make
// a run that finishes within a minute ask, a machine slow in every window is still found out, and
// nothing is judged before the windows are measured. Also the one rule for a long wait, which §1's
// estimate and §4's meter both ask.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { SpeedMeter, isLongRun, isLongWait, WINDOW_MS, MIN_WINDOWS, LONG_RUN_SECONDS, ABOUT_A_MINUTE_SECONDS } = await loadWeb('sections/speed-meter');

/** A meter on a clock the test moves, and a run that trains `msPerStep` per step for `ms`. */
function meterOnClock() {
  let now = 0;
  const meter = new SpeedMeter(() => now);
  let step = 0;
  return {
    meter,
    start() {
      meter.start(step);
    },
    /** `steps` steps at `msPerStep` each, recorded slice by slice (a slice of 16 ms, as the worker posts) */
    train(steps, msPerStep) {
      const perSlice = Math.max(1, Math.floor(16 / msPerStep));
      for (let done = 0; done < steps; done += perSlice) {
        const n = Math.min(perSlice, steps - done);
        now += n * msPerStep;
        step += n;
        meter.record(step);
      }
    },
    get step() {
      return step;
    },
  };
}

test('a busy first second (96.8 ms a step, then 10) does not make the 2500-step recipe ask', () => {
  const run = meterOnClock();
  run.start();
  run.train(11, 96.8); // the busy first second: the one sample of the old estimate
  assert.equal(run.meter.windows, 1);
  assert.equal(run.meter.settled, null, 'one window decides nothing');
  // the old rule, the first second alone: about 4 min for the rest, so it asked
  assert.ok(isLongRun(run.meter.latest, 2500 - run.step));
  run.train(120, 10);
  assert.ok(run.meter.windows >= MIN_WINDOWS);
  assert.ok(Math.abs(run.meter.settled - 10) < 0.5, `settled at ${run.meter.settled}`);
  assert.equal(isLongRun(run.meter.settled, 2500 - run.step), false, 'the recipe finishes in about 24 s');
});

test('a machine slow in every window is found out after MIN_WINDOWS windows and asks', () => {
  const run = meterOnClock();
  run.start();
  let asked = null;
  while (asked === null) {
    run.train(1, 97);
    if (isLongRun(run.meter.settled, 2500 - run.step)) asked = run.step;
  }
  assert.equal(run.meter.windows, MIN_WINDOWS);
  assert.ok(asked * 97 >= MIN_WINDOWS * WINDOW_MS && asked * 97 < (MIN_WINDOWS + 1) * WINDOW_MS, `asked at step ${asked}`);
  assert.ok(Math.abs(run.meter.settled - 97) < 1e-9);
});

test('a new run measures afresh; no window closes without a step; the limit is a minute', () => {
  const run = meterOnClock();
  run.start();
  run.train(300, 10);
  assert.ok(run.meter.best !== null);
  run.start();
  assert.equal(run.meter.best, null);
  assert.equal(run.meter.settled, null);
  assert.equal(run.meter.latest, null);
  // a step of 2.5 s: each window holds one step
  run.train(3, 2500);
  assert.equal(run.meter.windows, 3);
  assert.equal(isLongRun(null, 1e9), false, 'an unknown speed asks nothing');
  assert.equal(isLongRun(10, (LONG_RUN_SECONDS * 1000) / 10), false, 'exactly the limit does not ask');
  // a reader's run at 26 ms a step: 2,436 steps left are 63 s, and "about a minute of it" would save 3 s
  assert.equal(isLongRun(26, 2436), false, 'a run just over a minute is not asked about');
  assert.ok(ABOUT_A_MINUTE_SECONDS / LONG_RUN_SECONDS <= 0.8, 'the shorter run offered saves at least a fifth');
  assert.equal(isLongRun(10, (LONG_RUN_SECONDS * 1000) / 10 + 1), true);
});

test('a long wait is one rule: §1 asks it of seconds left, §4 of steps at a measured speed', () => {
  assert.equal(isLongWait(LONG_RUN_SECONDS), false, 'exactly the limit does not ask');
  assert.equal(isLongWait(LONG_RUN_SECONDS + 0.001), true);
  for (const seconds of [30, LONG_RUN_SECONDS, LONG_RUN_SECONDS + 1, 600]) {
    assert.equal(isLongRun(10, seconds * 100), isLongWait(seconds), `${seconds} s at 10 ms a step`);
  }
});
