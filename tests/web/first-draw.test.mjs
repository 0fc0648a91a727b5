// web/src/first-draw.ts: when a canvas gets its first draw. A heatmap starts watching its canvas
// before its data exists (`ready: false`), so that a canvas already known to be on screen draws in
// the task after its data arrives, without another wait for the observer; one off screen waits for
// the browser to be idle; nothing draws before ready(), and nothing after cancel().
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { loadWeb } from './setup.mjs';

/** The observers made so far; report(target, visible) plays the browser's intersection report. */
const observers = [];
class FakeIntersectionObserver {
  constructor(callback) {
    this.callback = callback;
    this.targets = new Set();
    observers.push(this);
  }
  observe(target) {
    this.targets.add(target);
  }
  disconnect() {
    this.targets.clear();
  }
}
const report = (target, isIntersecting) => {
  for (const o of observers) if (o.targets.has(target)) o.callback([{ target, isIntersecting }]);
};
/** idle callbacks wait until idle() runs them (the browser being idle) */
let idleQueue = [];
const idle = () => {
  for (const fn of idleQueue.splice(0)) fn();
};

beforeEach(() => {
  observers.length = 0;
  idleQueue = [];
  globalThis.IntersectionObserver = FakeIntersectionObserver;
  globalThis.requestIdleCallback = (fn) => idleQueue.push(fn);
  globalThis.cancelIdleCallback = (id) => {
    idleQueue[id - 1] = () => {};
  };
});
afterEach(() => {
  delete globalThis.IntersectionObserver;
  delete globalThis.requestIdleCallback;
  delete globalThis.cancelIdleCallback;
});

const { scheduleFirstDraw } = await loadWeb('first-draw');
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const canvas = () => ({ isConnected: true });

test('a canvas on screen waits for its data, then draws in the next task', async () => {
  const c = canvas();
  let draws = 0;
  const first = scheduleFirstDraw(c, () => draws++, { ready: false });
  report(c, true);
  await nextTask();
  assert.equal(draws, 0, 'no data yet: no draw');
  first.ready();
  assert.equal(draws, 0, 'not in the task that brought the data');
  await nextTask();
  assert.equal(draws, 1);
  first.ready();
  report(c, true);
  await nextTask();
  assert.equal(draws, 1, 'drawn once only');
});

test('data before the observer has reported: the draw waits for the report', async () => {
  const c = canvas();
  let draws = 0;
  const first = scheduleFirstDraw(c, () => draws++, { ready: false });
  first.ready();
  await nextTask();
  assert.equal(draws, 0);
  report(c, true);
  await nextTask();
  assert.equal(draws, 1);
});

test('a canvas off screen draws when the browser is idle, or as soon as it comes on screen', async () => {
  const c = canvas();
  let draws = 0;
  const first = scheduleFirstDraw(c, () => draws++, { ready: false });
  report(c, false);
  idle();
  assert.equal(draws, 0, 'idle before the data: nothing to draw');
  first.ready();
  await nextTask();
  assert.equal(draws, 0, 'off screen: not drawn in the next task');
  idle();
  assert.equal(draws, 1, 'drawn when idle');

  const d = canvas();
  let drawsD = 0;
  scheduleFirstDraw(d, () => drawsD++);
  report(d, false);
  report(d, true);
  await nextTask();
  assert.equal(drawsD, 1, 'came on screen: drawn without waiting for idle');
  idle();
  assert.equal(drawsD, 1);
});

test('cancel() stops a draw that was due', async () => {
  const c = canvas();
  let draws = 0;
  const first = scheduleFirstDraw(c, () => draws++);
  report(c, true);
  first.cancel();
  await nextTask();
  idle();
  assert.equal(draws, 0);
});

test('where the browser has scheduler.postTask, the draw is a user-blocking task, aborted by cancel()', async () => {
  const posted = [];
  globalThis.scheduler = {
    postTask(fn, { priority, signal }) {
      posted.push(priority);
      return new Promise((resolve, reject) => {
        const id = setTimeout(() => resolve(fn()), 0);
        signal.addEventListener('abort', () => {
          clearTimeout(id);
          reject(new Error('aborted'));
        });
      });
    },
  };
  try {
    const c = canvas();
    let draws = 0;
    const first = scheduleFirstDraw(c, () => draws++, { ready: false });
    report(c, true);
    first.ready();
    assert.deepEqual(posted, ['user-blocking']);
    await nextTask();
    assert.equal(draws, 1);

    const d = canvas();
    let drawsD = 0;
    const second = scheduleFirstDraw(d, () => drawsD++);
    report(d, true);
    second.cancel();
    await nextTask();
    await nextTask();
    assert.equal(drawsD, 0, 'aborted');
  } finally {
    delete globalThis.scheduler;
  }
});
