// The Performance page's labels of the bench's browser rows (web/src/sections/performance-labels.ts):
// every row of the committed results (shared/bench/results.json) has its label in both languages,
// so none falls back to the bench's English text on the Chinese page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { PAGE_LABELS, TASK_LABELS } = await loadWeb('sections/performance-labels');
const results = JSON.parse(readFileSync(new URL('../../shared/bench/results.json', import.meta.url), 'utf8'));

test('every measured page and training task of the committed results has a label in English and Chinese', () => {
  const pages = [...results.browser.first_heatmap, ...results.browser.widgets];
  assert.ok(pages.length > 0 && Object.keys(results.browser.training).length > 0, 'the committed results have browser rows');
  for (const row of pages) {
    const label = PAGE_LABELS[row.path];
    assert.ok(label?.en?.trim() && label?.zh?.trim(), `no label for ${row.path} (${row.page})`);
    assert.match(label.zh, /[\u4e00-\u9fff]/, `${row.path}: its Chinese label is in Chinese`);
  }
  for (const task of Object.keys(results.browser.training)) {
    assert.ok(TASK_LABELS[task]?.en && TASK_LABELS[task]?.zh, `no label for the training task ${task}`);
  }
});

test('a widget row shows the element the bench loaded, as the bench wrote it', () => {
  for (const w of results.browser.widgets) assert.equal(PAGE_LABELS[w.path].element, w.page, w.path);
});
