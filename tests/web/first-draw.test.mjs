// web/src/first-draw.ts: when a canvas gets its first draw. A heatmap starts watching its canvas
// before its data exists (`ready: false`), so that a canvas already known to be on screen draws in
// the task after its data arrives, without another wait for the observer; one off screen waits for
// the browser to be idle; nothing draws before ready(), and nothing after cancel(); canvases ready
// together draw one per frame.
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
/** A canvas in the page, its first draw scheduled with `options`, and how often it has drawn. */
const watched = (options) => {
  const canvas = { isConnected: true, dataset: {} };
  let count = 0;
  const first = scheduleFirstDraw(canvas, () => count++, options);
  return { canvas, first, draws: () => count };
};

test('a canvas on screen waits for its data, then draws in the next task', async () => {
  const { canvas, first, draws } = watched({ ready: false });
  assert.equal(canvas.dataset.firstDraw, 'data', 'the canvas says what it waits for');
  report(canvas, true);
  await nextTask();
  assert.equal(draws(), 0, 'no data yet: no draw');
  first.ready();
  assert.equal(draws(), 0, 'not in the task that brought the data');
  assert.equal(canvas.dataset.firstDraw, 'task');
  await nextTask();
  assert.equal(draws(), 1);
  assert.equal(canvas.dataset.firstDraw, 'drawn');
  first.ready();
  report(canvas, true);
  await nextTask();
  assert.equal(draws(), 1, 'drawn once only');
});

test('data before the observer has reported: the draw waits for the report', async () => {
  const { canvas, first, draws } = watched({ ready: false });
  first.ready();
  await nextTask();
  assert.equal(draws(), 0);
  report(canvas, true);
  await nextTask();
  assert.equal(draws(), 1);
});

test('a canvas off screen draws when the browser is idle, or as soon as it comes on screen', async () => {
  const away = watched({ ready: false });
  report(away.canvas, false);
  idle();
  assert.equal(away.draws(), 0, 'idle before the data: nothing to draw');
  away.first.ready();
  await nextTask();
  assert.equal(away.draws(), 0, 'off screen: not drawn in the next task');
  assert.equal(away.canvas.dataset.firstDraw, 'idle');
  idle();
  assert.equal(away.draws(), 1, 'drawn when idle');

  const coming = watched();
  report(coming.canvas, false);
  report(coming.canvas, true);
  await nextTask();
  assert.equal(coming.draws(), 1, 'came on screen: drawn without waiting for idle');
  idle();
  assert.equal(coming.draws(), 1);
});

test('cancel() stops a draw that was due', async () => {
  const { canvas, first, draws } = watched();
  report(canvas, true);
  first.cancel();
  await nextTask();
  idle();
  assert.equal(draws(), 0);
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
    const shown = watched({ ready: false });
    report(shown.canvas, true);
    shown.first.ready();
    assert.deepEqual(posted, ['user-blocking']);
    await nextTask();
    assert.equal(shown.draws(), 1);

    const cancelled = watched();
    report(cancelled.canvas, true);
    cancelled.first.cancel();
    await nextTask();
    await nextTask();
    assert.equal(cancelled.draws(), 0, 'aborted');
  } finally {
    delete globalThis.scheduler;
  }
});

test('canvases ready together draw one per frame: the browser shows the first before the next draws', async () => {
  /** animation-frame callbacks by id, run by frame() (the browser's next frame) */
  const frameQueue = new Map();
  let lastId = 0;
  const frame = () => {
    const due = [...frameQueue.values()];
    frameQueue.clear();
    for (const fn of due) fn();
  };
  globalThis.requestAnimationFrame = (fn) => {
    frameQueue.set(++lastId, fn);
    return lastId;
  };
  globalThis.cancelAnimationFrame = (id) => frameQueue.delete(id);
  try {
    const maps = [watched({ ready: false }), watched({ ready: false }), watched({ ready: false })];
    for (const m of maps) report(m.canvas, true);
    for (const m of maps) m.first.ready(); // one answer fills all three
    await nextTask();
    assert.deepEqual(maps.map((m) => m.draws()), [1, 0, 0], 'the first draws; the others wait for the frame');
    await nextTask();
    assert.deepEqual(maps.map((m) => m.draws()), [1, 0, 0], 'no second draw before the frame');
    frame();
    await nextTask();
    assert.deepEqual(maps.map((m) => m.draws()), [1, 1, 0], 'after the frame, the next one');
    frame();
    await nextTask();
    assert.deepEqual(maps.map((m) => m.draws()), [1, 1, 1]);
    frame();

    // a draw waiting for the frame is still stopped by cancel()
    const drawn = watched();
    const waiting = watched();
    report(drawn.canvas, true);
    report(waiting.canvas, true);
    await nextTask();
    assert.equal(drawn.draws(), 1);
    waiting.first.cancel();
    frame();
    await nextTask();
    frame();
    await nextTask();
    assert.equal(waiting.draws(), 0, 'cancelled while waiting for the frame');
    assert.equal(frameQueue.size, 0, 'nothing left waiting');
  } finally {
    frame(); // the module's "drawn since the last frame" flag back to false for the other tests
    await nextTask();
    delete globalThis.requestAnimationFrame;
    delete globalThis.cancelAnimationFrame;
  }
});
