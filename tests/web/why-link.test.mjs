// The ask-why panel's interventions in the link (web/src/sections/translate-why-link.ts): the text
// round-trips, and every malformed item is refused by number with what is wrong, never evaluated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { formatInterventions, parseInterventions, MAX_LINK_ITEMS } = await loadWeb('sections/translate-why-link');

test('interventions round-trip through the link text, counted from 1', () => {
  const list = [
    { step: 1, kind: 'force-attention', source: 0 },
    { step: 0, kind: 'force-token', token: 'a,b 100%' },
    { step: 2, kind: 'force-token', token: '喜欢' },
    { kind: 'zero-head', attention: 'cross', layer: 0, head: 1 },
    { step: 3, kind: 'zero-head', attention: 'decoder-self', layer: 1, head: 0 },
    { kind: 'zero-head', attention: 'encoder-self', layer: 0, head: 3 },
  ];
  const text = formatInterventions(list);
  assert.equal(text, 'a2:1,w1:a%2Cb%20100%25,w3:喜欢,zc1.2,zd2.1@4,ze1.4');
  assert.deepEqual(parseInterventions(text, true), { ok: true, list });
  assert.deepEqual(parseInterventions('', false), { ok: true, list: [] });
  assert.deepEqual(parseInterventions(' a1:1 ', false), { ok: true, list: [{ step: 0, kind: 'force-attention', source: 0 }] });
});

test('malformed items are named by number and problem', () => {
  const cases = [
    ['a0:1', 1, 'step'],
    ['a1:0', 1, 'source'],
    ['a1:1,b2', 2, 'form'],
    ['a1:1,<img src=x onerror=alert(1)>', 2, 'form'],
    ['a1.5:1', 1, 'form'],
    ['a99999:1', 1, 'step'],
    ['w1:', 1, 'form'],
    ['w1:%E0%A4', 1, 'word'],
    ['w1:%0A', 1, 'word'],
    [`w1:${'x'.repeat(65)}`, 1, 'word'],
    ['zc1.1', 1, 'transformer', false],
    ['zc0.1', 1, 'layer'],
    ['zc7.1', 1, 'layer'],
    ['zc1.17', 1, 'head'],
    ['ze1.1@2', 1, 'encoder-step'],
    ['zx1.1', 1, 'form'],
    [',', 1, 'form'],
    [Array(MAX_LINK_ITEMS + 1).fill('a1:1').join(','), MAX_LINK_ITEMS + 1, 'many'],
  ];
  for (const [text, item, problem, transformer = true] of cases) {
    const r = parseInterventions(text, transformer);
    assert.equal(r.ok, false, text);
    assert.equal(r.item, item, text);
    assert.equal(r.problem, problem, text);
    assert.ok(r.text.length <= 40, text);
  }
});
