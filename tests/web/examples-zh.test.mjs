// The Chinese example pages read as Chinese: a line break in a paragraph's source between two
// Chinese characters renders as a space in the browser ("模型 学习"), so no run of text in them
// has white space between two Chinese characters or marks.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const EXAMPLES = new URL('../../web/examples/', import.meta.url);
const CJK = '[\\u3000-\\u303f\\u4e00-\\u9fff\\uff00-\\uffef]';
const SPACED = new RegExp(`${CJK}\\s+${CJK}`, 'gu');

for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.zh.html'))) {
  test(`${file}: no space between Chinese characters`, () => {
    // tags end a run of text (an element's boundary is no space in the text)
    const text = readFileSync(new URL(file, EXAMPLES), 'utf8').replace(/<[^>]*>/g, '\0');
    assert.deepEqual(text.match(SPACED) ?? [], []);
  });
}
