// wasm/js/gpt-form.mjs, the form checker that §5, scripts/gpt-poems.mjs and the CLI share: on the
// real poems of 唐诗三百首 as this machine's fortunes-zh holds them (the repository holds no poem
// text), every regular 绝句 and 律诗 has the form, and each way of breaking one is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORTUNE_DIR, parseFortunePoems } from '../../scripts/poems.mjs';
import { poemForm, sampleForm, samplePoem, bodyLines, SAMPLE_CAP } from '../../wasm/js/gpt-form.mjs';

const FILE = join(FORTUNE_DIR, 'tang300');
const skip = !existsSync(FILE) && 'fortunes-zh is not installed (bash scripts/ensure-deps.sh)';
const poems = () => parseFortunePoems(readFileSync(FILE, 'utf8'), 'tang300');
const text = (p) => [p.title, p.author, ...p.lines].join('\n');
const byTitle = (title) => poems().find((p) => p.title === title);

// Sentences of a poem counted independently of the checker: the text between marks.
const sentenceLengths = (p) => p.lines.join('').split(/[，。？！；、：]/).filter((s) => s !== '').map((s) => [...s].length);

test('every regular 五言/七言 绝句 and 律诗 of the collection has the form', { skip }, () => {
  const all = poems();
  let regular = 0;
  for (const p of all) {
    const lengths = sentenceLengths(p);
    const isRegular = (lengths.length === 4 || lengths.length === 8) && (lengths[0] === 5 || lengths[0] === 7) && lengths.every((n) => n === lengths[0]) &&
      p.lines.every((l) => /[，。？！；、：]$/.test(l)) && /[。？！]$/.test(p.lines.at(-1));
    if (isRegular) regular++;
    assert.equal(poemForm(text(p)).ok, isRegular, `${p.title}: ${poemForm(text(p)).why || 'has the form'}`);
  }
  assert.equal(all.length, 313);
  assert.equal(regular, 242); // the rest are 古诗 and 乐府: more sentences, or lines of several lengths
  for (const title of ['《相思》', '《春望》', '《登鹳雀楼》', '《枫桥夜泊》', '《黄鹤楼》', '《登高》']) {
    const p = byTitle(title);
    assert.ok(p, title);
    assert.deepEqual(poemForm(text(p)), { ok: true, why: '', sentences: p.lines.length === 2 ? 4 : 8, length: sentenceLengths(p)[0] }, title);
  }
});

test('a broken poem has no form, and the verdict says why', { skip }, () => {
  const p = byTitle('《春望》'); // 五律: four lines of two sentences
  const broken = (lines) => poemForm([p.title, p.author, ...lines].join('\n'));
  const [a, b, c, d] = p.lines;
  assert.match(broken([a, b, c]).why, /^6 sentences, not 4 or 8$/);
  assert.match(broken([a]).why, /^2 sentences/);
  assert.match(broken([a.slice(1), b, c, d]).why, /^sentences of 4 characters, not 5 or 7$/);
  assert.match(broken([a, b.slice(0, 3) + b.slice(4), c, d]).why, /^sentence 3 has 4 characters, not 5$/);
  assert.match(broken([a, b, c, d.slice(0, -1)]).why, /^a line ends inside a sentence$/);
  assert.match(broken([a, b, c, d.slice(0, -1) + '，']).why, /^the last sentence ends with ，/);
  assert.match(broken([a.replace('，', ''), b, c, d]).why, /sentences/);
  assert.match(broken([a, b, c, 'x' + d.slice(1)]).why, /^sentence 7 holds a character that is not a Chinese character$/);
  assert.match(broken([a.slice(0, 6), a.slice(6), b, c, d]).why, /^$/); // one sentence a line is the same form
  // the title and author are not the body; without them the body alone is the poem
  assert.equal(poemForm(p.lines.join('\n')).ok, true);
  assert.deepEqual(bodyLines(text(p)), p.lines);
});

test('a sample is the generated text up to the poem end; without an end it has no form', { skip }, () => {
  const p = byTitle('《相思》');
  assert.equal(samplePoem(`${text(p)}\n\n《`), text(p));
  assert.equal(sampleForm(`${text(p)}\n\n《下一首`).ok, true);
  assert.equal(samplePoem(text(p)), null);
  assert.deepEqual(sampleForm(text(p)), { ok: false, why: 'no poem end within the cap', sentences: 0, length: 0 });
  assert.ok(SAMPLE_CAP > [...byTitle('《黄鹤楼》').lines.join('\n')].length + 20, 'a 七律 with its title and author fits the cap');
});
