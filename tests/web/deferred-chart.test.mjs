// web/src/charts/deferred-chart.ts: charts whose turn comes together (every chart waiting for
// Chart.js when it arrives) are built one per task, in the order they asked, never one after
// another in the task that made them ready (which was one long task of several builds).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { buildSoon } = await loadWeb('charts/deferred-chart');

/** one turn of the event loop's timers (a setTimeout queued now runs after those queued before) */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

test('queued builds run one per task, in order, none in the task that queued them', async () => {
  const built = [];
  for (const id of ['loss', 'accuracy', 'top-k']) buildSoon(() => built.push(id));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assert.deepEqual(built, [], 'nothing is built in the queuing task or its microtasks');
  await nextTask();
  assert.deepEqual(built, ['loss']);
  await nextTask();
  assert.deepEqual(built, ['loss', 'accuracy']);
  buildSoon(() => built.push('late'));
  await nextTask();
  assert.deepEqual(built, ['loss', 'accuracy', 'top-k']);
  await nextTask();
  assert.deepEqual(built, ['loss', 'accuracy', 'top-k', 'late']);
});
