// Language choice and string lookup (web/src/i18n.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { SHELL_STRINGS, browserLang, resolveLang, translator } = await loadWeb('i18n');

test('the shell strings have the same keys in both languages, none empty', () => {
  assert.deepEqual(Object.keys(SHELL_STRINGS.zh).sort(), Object.keys(SHELL_STRINGS.en).sort());
  for (const lang of ['en', 'zh']) for (const [k, v] of Object.entries(SHELL_STRINGS[lang])) assert.ok(v.trim(), `${lang} ${k}`);
});

test('lookup: own table first, then later tables, then English, then the key itself', () => {
  const section = { en: { a: 'A', b: 'B' }, zh: { a: '甲' } };
  const shell = { en: { b: 'shell B', c: 'C' }, zh: { c: '丙' } };
  const zh = translator('zh', section, shell);
  assert.equal(zh('a'), '甲');
  assert.equal(zh('c'), '丙');
  assert.equal(zh('b'), 'B', 'a missing Chinese string falls back to English (first table wins)');
  assert.equal(zh('missing.key'), 'missing.key');
  const en = translator('en', section, shell);
  assert.equal(en('b'), 'B');
  assert.equal(en('c'), 'C');
});

test('browser language: the first zh or en tag wins; anything else is English', () => {
  assert.equal(browserLang(['zh-CN', 'en']), 'zh');
  assert.equal(browserLang(['zh-Hant-TW']), 'zh');
  assert.equal(browserLang(['fr-FR', 'en-GB', 'zh']), 'en');
  assert.equal(browserLang(['fr-FR', 'ZH']), 'zh');
  assert.equal(browserLang(['de']), 'en');
  assert.equal(browserLang([]), 'en');
  assert.equal(resolveLang('zh'), 'zh');
  assert.equal(resolveLang('en'), 'en');
  assert.ok(['en', 'zh'].includes(resolveLang('auto')));
});

test('the strings of §1, §2, §3.1–3.2 and §3.4–3.5 exist in both languages, none empty, same placeholders', async () => {
  const tables = {
    why: (await loadWeb('sections/why-strings')).WHY_STRINGS,
    idea: (await loadWeb('sections/idea-strings')).IDEA_STRINGS,
    dot: (await loadWeb('sections/dot-strings')).DOT_STRINGS,
    self: (await loadWeb('sections/self-strings')).SELF_STRINGS,
    modelFile: (await loadWeb('sections/model-file-strings')).MODEL_FILE_STRINGS,
    askWhy: (await loadWeb('sections/translate-why-strings')).ASK_WHY_STRINGS,
    timeline: (await loadWeb('sections/translate-timeline-strings')).TIMELINE_STRINGS,
    sentence: (await loadWeb('sections/sentence-error')).SENTENCE_STRINGS,
  };
  const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const page = (await loadWeb('shell/page-strings')).PAGE_STRINGS;
  for (const [name, table] of Object.entries({ ...tables, shell: SHELL_STRINGS, page })) {
    assert.deepEqual(Object.keys(table.zh).sort(), Object.keys(table.en).sort(), name);
    for (const [k, v] of Object.entries(table.en)) {
      assert.ok(v.trim() && table.zh[k].trim(), `${name} ${k} is empty`);
      assert.deepEqual(placeholders(table.zh[k]), placeholders(v), `${name} ${k}: the Chinese has other placeholders`);
    }
  }
  // no user-visible wording about issues anywhere (the performance figures included)
  const perf = (await loadWeb('sections/performance')).performanceSection.strings;
  for (const lang of ['en', 'zh']) {
    for (const [k, v] of Object.entries(perf[lang])) assert.doesNotMatch(v, /\bissue|议题/i, `${lang} ${k}`);
  }
});

test('field errors name the field and the limit, in both languages', async () => {
  const { checkNumber } = await loadWeb('sections/dom');
  const en = translator('en', SHELL_STRINGS);
  const zh = translator('zh', SHELL_STRINGS);
  const rule = { min: 10, max: 60, integer: true };
  assert.equal(checkNumber(en, 'Longest string', '80', rule), 'Longest string: at most 60');
  assert.equal(checkNumber(zh, '最长序列', '80', rule), '最长序列：最大为 60');
  assert.equal(checkNumber(en, 'Hidden size', '-3', { min: 8, max: 256, integer: true }), 'Hidden size: at least 8');
  assert.equal(checkNumber(en, 'Hidden size', '8.5', { min: 8, max: 256, integer: true }), 'Hidden size: must be a whole number');
  assert.equal(checkNumber(en, 'Hidden size', '', rule), 'Hidden size: enter a value');
  assert.equal(checkNumber(en, 'Hidden size', 'abc', rule), 'Hidden size: must be a number');
  assert.equal(checkNumber(en, 'Longest string', '60', rule), null);
});

test('§1 run-time estimates read as seconds, minutes, or hours and minutes, in both languages', async () => {
  const { formatDuration } = await loadWeb('sections/why');
  const { WHY_STRINGS } = await loadWeb('sections/why-strings');
  const en = translator('en', WHY_STRINGS);
  const zh = translator('zh', WHY_STRINGS);
  assert.equal(formatDuration(en, 42), '42 s');
  assert.equal(formatDuration(en, 600), '10 min');
  assert.equal(formatDuration(en, 3 * 3600 + 5 * 60), '3 h 5 min');
  assert.equal(formatDuration(zh, 3 * 3600 + 5 * 60), '3 小时 5 分钟');
  assert.equal(formatDuration(en, 0.2), '1 s', 'never "0 s"');
});

test("the page's own strings (shell/page-strings.ts) are used by the page's modules only: a widget would show their keys", async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const page = (await loadWeb('shell/page-strings')).PAGE_STRINGS;
  const keys = Object.keys(page.en);
  assert.ok(keys.length > 10);
  for (const key of keys) assert.equal(SHELL_STRINGS.en[key], undefined, `${key} is in both tables`);
  const src = new URL('../../web/src/', import.meta.url);
  for (const dir of ['sections', 'widgets', 'heatmap', 'charts', 'worker', '.']) {
    for (const file of readdirSync(new URL(`${dir}/`, src)).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(new URL(`${dir}/${file}`, src), 'utf8');
      for (const key of keys) assert.ok(!text.includes(`'${key}'`), `${dir}/${file} uses the page string ${key}`);
    }
  }
});

test('importWithStrings: the module once its strings are in; a table that fails to load leaves its keys; a failed import rejects', async () => {
  const { importWithStrings, oneLanguageStrings, translator } = await loadWeb('i18n');
  const good = oneLanguageStrings({ en: async () => ({ default: { 'k.good': 'Good' } }), zh: async () => ({ default: { 'k.good': '好' } }) });
  const broken = oneLanguageStrings({
    en: async () => {
      throw new Error('the strings did not load');
    },
    zh: async () => ({ default: {} }),
  });
  const module = { name: 'section' };
  assert.equal(await importWithStrings(async () => module, 'en'), module);
  assert.equal(translator('en', good)('k.good'), 'Good');
  assert.equal(translator('en', broken)('k.broken'), 'k.broken', 'the key stands in for the missing string');
  await assert.rejects(
    importWithStrings(async () => {
      throw new Error('chunk failed');
    }, 'en'),
    /chunk failed/,
  );
});
