// What a section that trains says to a screen reader (sections/announcer.ts): nothing for the state
// at load; a new phase (training, paused, done) at once; progress while training at most once every
// PROGRESS_EVERY_MS, the latest text winning; a phase change drops a progress line still waiting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.dataset = {};
    this.attributes = {};
    this.className = '';
    this.said = [];
    this._text = '';
  }
  setAttribute(name, value) {
    this.attributes[name] = value;
  }
  get textContent() {
    return this._text;
  }
  set textContent(text) {
    this._text = text;
    this.said.push(text);
  }
}
globalThis.document ??= { createElement: (tag) => new FakeElement(tag) };

const { Announcer, PROGRESS_EVERY_MS } = await loadWeb('sections/announcer');

test('phases at once, progress throttled, nothing at load', async (t) => {
  let now = 1000;
  t.mock.method(performance, 'now', () => now);
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const a = new Announcer('en');
  const region = a.element;
  assert.equal(region.attributes.role, 'status');
  assert.equal(region.attributes['aria-live'], 'polite');
  assert.match(region.className, /lab-visually-hidden/);

  a.track('idle', 'Step 0 of 400');
  assert.deepEqual(region.said, [], 'the state at load is not announced');
  a.track('training', ['Step 0 of 400', null]);
  assert.deepEqual(region.said, ['Training: Step 0 of 400']);
  for (let step = 1; step <= 50; step++) {
    now += 100; // 5 s of redraws, ten a second
    a.track('training', ['Step ' + step * 4 + ' of 400', 'about 9 s left']);
  }
  t.mock.timers.tick(PROGRESS_EVERY_MS);
  assert.deepEqual(region.said, ['Training: Step 0 of 400', 'Training: Step 200 of 400, about 9 s left']);
  now += 1000;
  a.track('training', 'Step 240 of 400');
  a.track('paused', 'Step 241 of 400');
  t.mock.timers.tick(PROGRESS_EVERY_MS);
  assert.deepEqual(region.said.slice(2), ['Paused: Step 241 of 400'], 'the waiting progress line was dropped for the pause');
  a.track('done', 'Step 400 of 400');
  assert.equal(region.said.at(-1), 'Training done: Step 400 of 400');
  a.destroy();
});

test('Chinese: the phase words and separators of the page', () => {
  const a = new Announcer('zh');
  a.track('idle', '');
  a.track('training', ['第 0 步，配方共 400 步', '约剩 5 秒']);
  assert.equal(a.element.textContent, '训练中：第 0 步，配方共 400 步，约剩 5 秒');
  a.track('paused', '已暂停，第 3 / 10 步。', { named: false });
  assert.equal(a.element.textContent, '已暂停，第 3 / 10 步。');
  a.destroy();
});
