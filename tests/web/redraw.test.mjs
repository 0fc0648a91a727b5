// What §3.3 and §4 do while their model trains. The worker reports after every slice of training,
// and each redraw's style, layout and paint takes time from it: so a section redraws at most 30
// times a second, or 15 below 4 cores (redraw.ts); a redraw writes only the text that changed
// (setText); and §3.3's comparison table is rebuilt only at an evaluation (the rows' training time
// in their data moves in between).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

/** Just enough of an element for the section's DOM helpers: counts how often its children are replaced. */
class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.dataset = {};
    this.hidden = false;
    this.className = '';
    this.textContent = '';
    this.replaced = 0;
  }
  append(...nodes) {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes) {
    this.children = nodes;
    this.replaced++;
  }
  addEventListener() {}
}
globalThis.document ??= { createElement: (tag) => new FakeElement(tag) };
// the table's scroll box watches its size (cut-edges.ts); nothing here resizes
globalThis.ResizeObserver ??= class {
  observe() {}
};
globalThis.MutationObserver ??= class {
  observe() {}
};

const { setText } = await loadWeb('sections/dom');
const { CompareView } = await loadWeb('sections/translate-compare');
const { Redraw } = await loadWeb('redraw');
const { redrawIntervalMs } = await loadWeb('sections/training-redraw');

test('setText writes a node’s text only when it differs', () => {
  let writes = 0;
  let text = 'step 10 of 300';
  const node = {
    get textContent() {
      return text;
    },
    set textContent(value) {
      writes++;
      text = value;
    },
  };
  setText(node, 'step 10 of 300');
  assert.equal(writes, 0);
  setText(node, 'step 11 of 300');
  assert.equal(writes, 1);
  assert.equal(text, 'step 11 of 300');
  setText(node, '');
  assert.equal(writes, 2);
});

function evaluation(exactMatch) {
  return {
    loss: 1.5,
    tokenAccuracy: 0.5,
    exactMatch,
    examples: 20,
    heldOutIsTrainingData: false,
    alignmentAccuracy: 0.25,
    alignedTokens: 40,
    exactMatchByLength: [
      { minLength: 4, maxLength: 6, examples: 10, exactMatch },
      { minLength: 7, maxLength: 9, examples: 10, exactMatch: 0 },
    ],
  };
}

test('the comparison table is rebuilt at an evaluation, not at every redraw', () => {
  const host = new FakeElement('div');
  const empty = new FakeElement('p');
  const view = new CompareView(host, empty, 'en');
  const table = host.children[0].children[0]; // in its scroll box
  const rowOf = (id) => table.children[2].children.find((tr) => tr.dataset.model === id);
  const trainMsOf = (id) => JSON.parse(rowOf(id).dataset.evaluation).trainMs;

  view.update([{ id: 'attention', score: 'dot', step: 0, evaluation: null, trainMs: 0 }]);
  assert.equal(table.replaced, 0, 'nothing to show before the first evaluation');
  assert.equal(empty.hidden, false);

  const first = evaluation(0.1);
  view.update([{ id: 'attention', score: 'dot', step: 200, evaluation: first, trainMs: 1000.4 }]);
  assert.equal(table.replaced, 1);
  assert.equal(empty.hidden, true);
  const row = rowOf('attention');
  assert.equal(trainMsOf('attention'), 1000);
  assert.equal(row.children[3].textContent, '10.0%', 'exact match');

  // redraws while training on: the same evaluation, more training time
  view.update([{ id: 'attention', score: 'dot', step: 200, evaluation: first, trainMs: 1500 }]);
  view.update([{ id: 'attention', score: 'dot', step: 200, evaluation: first, trainMs: 2100 }]);
  assert.equal(table.replaced, 1, 'not rebuilt between evaluations');
  assert.equal(rowOf('attention'), row);
  assert.equal(trainMsOf('attention'), 2100, 'the row’s data follows the training time');

  // the next evaluation, a new model beside it, or another tokenization: rebuilt
  view.update([{ id: 'attention', score: 'dot', step: 400, evaluation: evaluation(0.3), trainMs: 2500 }]);
  assert.equal(table.replaced, 2);
  assert.equal(rowOf('attention').children[3].textContent, '30.0%');
  const second = rowOf('attention').dataset.evaluation;
  view.update([
    { id: 'attention', score: 'dot', step: 400, evaluation: JSON.parse(second), trainMs: 2500 },
    { id: 'plain', score: 'dot', step: 400, evaluation: evaluation(0.2), trainMs: 2400 },
  ]);
  assert.equal(table.replaced, 3);
  assert.equal(trainMsOf('plain'), 2400);
  const rows = [{ id: 'attention', score: 'dot', step: 400, evaluation: first, trainMs: 2600 }];
  view.update(rows);
  view.update(rows, true);
  assert.equal(table.replaced, 5, 'characters instead of words: the bucket headings change');
});

test('while training, the page redraws about 30 times a second with cores to spare, 15 on 2', () => {
  const perSecond = (cores) => 1000 / redrawIntervalMs(cores);
  assert.ok(perSecond(8) > 30 && perSecond(8) < 33, `8 cores: ${perSecond(8)}`);
  assert.equal(redrawIntervalMs(4), redrawIntervalMs(8));
  assert.ok(perSecond(2) > 15 && perSecond(2) < 16, `2 cores: ${perSecond(2)}`);
  assert.equal(redrawIntervalMs(1), redrawIntervalMs(2));
  assert.equal(redrawIntervalMs(undefined), redrawIntervalMs(2), 'a browser that does not say: as on 2 cores');
});

test('Redraw every N ms: one redraw however often it is asked, the next one an interval later, none after stop()', (t) => {
  // the page's clock and timers, stepped by hand: the pacing is checked, not the machine's speed
  let now = 1000;
  t.mock.method(performance, 'now', () => now);
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const advance = (ms) => {
    for (let i = 0; i < ms; i++) {
      now += 1;
      t.mock.timers.tick(1);
    }
  };
  const times = [];
  const pacer = new Redraw(() => times.push(now), { everyMs: 40 });
  for (let i = 0; i < 10; i++) pacer.request();
  advance(1);
  assert.deepEqual(times, [1001], 'the first redraw comes in the next task, once');
  for (let i = 0; i < 10; i++) pacer.request();
  advance(15);
  assert.equal(times.length, 1, 'the second waits for the interval');
  advance(60);
  assert.deepEqual(times, [1001, 1041], 'the second comes one interval after the first, once');
  pacer.request();
  pacer.stop();
  pacer.request();
  advance(100);
  assert.equal(times.length, 2, 'nothing after stop()');
});

test('Redraw in a frame: one run in the next animation frame however often it is asked, none after stop()', () => {
  const frames = [];
  globalThis.requestAnimationFrame = (fn) => frames.push(fn);
  globalThis.cancelAnimationFrame = (id) => {
    frames[id - 1] = null;
  };
  try {
    let runs = 0;
    const repaint = new Redraw(() => runs++, { frame: true });
    for (let i = 0; i < 5; i++) repaint.request();
    assert.equal(frames.length, 1, 'one frame asked for');
    assert.equal(runs, 0, 'nothing before the frame');
    frames.shift()();
    assert.equal(runs, 1);
    repaint.request();
    assert.equal(frames.length, 1, 'asked again after the run: the next frame');
    repaint.stop();
    assert.equal(frames[0], null, 'stop() cancels the pending frame');
    repaint.request();
    assert.equal(frames.length, 1, 'nothing after stop()');
    assert.equal(runs, 1);
  } finally {
    delete globalThis.requestAnimationFrame;
    delete globalThis.cancelAnimationFrame;
  }
});
