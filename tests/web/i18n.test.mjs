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
