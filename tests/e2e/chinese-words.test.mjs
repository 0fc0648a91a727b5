// The article in Chinese speaks Chinese: every section rendered with lang=zh (collapsed panels
// opened), every visible text node and every aria-label, aria-description, title, alt and
// placeholder walked, and any Latin word outside the allow-list fails, with where it was found.
// Not words of the page's language, so not checked: mathematics (<math>, and symbols such as q1,
// W_Q, b_K: one letter with digits or a subscript), code and data fields (pre, code, textarea,
// the hidden <output> elements tests read), data shown in its own language (an element with
// lang="en", e.g. the English a model writes or a date typed in English), and English quoted as
// such in Chinese prose (between “ and ”, e.g. 译成“met”). The page marks every other-language run
// with its lang for screen readers (shell/lang-runs.ts); those marks carry data-lang-run and are
// checked like any text.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';

/** The note's own terms and the few names the Chinese page keeps in Latin letters. */
export const ALLOWED = new Set([
  // the note's terms and the names of models and methods it uses
  'Q', 'K', 'V', 'QKV', 'GRU', 'LSTM', 'RNN', 'Adam', 'softmax', 'ISO', 'Seq2Seq', 'Transformer', 'GPT', 'top-k', 'top-p',
  // file formats
  'PNG', 'SVG', 'CSV', 'JSON', 'safetensors', 'tsv',
  // the encoding a text file must be in (UTF-8), as §5's own-text field names it
  'UTF',
  // software (the project's own name among it) and the authors of cited papers
  'AttentionLab', 'PyTorch', 'TF.js', 'Eigen', 'WebAssembly', 'Node', 'Emscripten', 'BLAS', 'OpenBLAS', 'Chromium',
  // §5's corpus: where it comes from and its licence, named as they are
  'Debian', 'fortunes-zh', 'GPL', 'GPL-3.0',
  'Jain', 'Wallace', 'Wiegreffe', 'Pinter',
  // units and the compression the performance page measures, written as engineers read them
  'ms', 'GFLOP', 'KiB', 'MiB', 'gzip',
  // keys
  'Tab', 'Ctrl', 'Mac',
  // the models' own start and end tokens, shown as the models write them (<sos>, <eos>)
  'sos', 'eos',
]);
// one letter (with an index), and the functions formulas name: ln, exp
const MATH = /^([A-Za-z](\d+|_[A-Za-z0-9]+)?|ln|exp)$/;

describe('the Chinese page', { timeout: 240_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  /** Every Latin word of the page outside the allow-list, with where it was found. */
  async function latinWords() {
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    await page.waitForTimeout(500);
    const found = await page.evaluate(() => {
      const words = /[A-Za-z][A-Za-z0-9_]*(?:[-'.][A-Za-z0-9_]+)*/g;
      const skipped = (el) => el.closest('math, script, style, pre, code, textarea, output, [hidden], [lang]:not([lang^="zh"]):not([data-lang-run])');
      const unquoted = (s) => s.replace(/“[^”]*”/g, ' ');
      const out = [];
      // where: the section, the element (tag and class) and the text, so a failure points at its code
      const place = (el) => `${el.closest('[id]')?.id ?? 'body'} ${el.tagName.toLowerCase()}${el.classList.length ? '.' + [...el.classList].join('.') : ''}`;
      const note = (text, where, el) => {
        for (const m of unquoted(text).matchAll(words)) out.push({ word: m[0], where: `${place(el)}: ${where.slice(0, 100)}` });
      };
      // a run the page marked with its lang is a span of its own: quoted when the text around it is
      const quotedRun = (el) => el.hasAttribute('data-lang-run') && /“[^”]*$/.test(el.previousSibling?.textContent ?? '') && /^[^“]*”/.test(el.nextSibling?.textContent ?? '');
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeType === Node.TEXT_NODE) {
          if (n.parentElement && !skipped(n.parentElement) && !quotedRun(n.parentElement)) note(n.textContent ?? '', (n.textContent ?? '').trim(), n.parentElement);
        } else if (!skipped(n)) {
          for (const name of ['aria-label', 'aria-description', 'title', 'alt', 'placeholder']) {
            const value = n.getAttribute(name);
            if (value) note(value, `[${name}]: ${value}`, n);
          }
        }
      }
      return out;
    });
    const bad = found.filter((f) => !ALLOWED.has(f.word) && !MATH.test(f.word));
    return [...new Map(bad.map((b) => [b.word, b])).values()].map((b) => `${b.word} — ${b.where}`);
  }

  test('the article: no Latin word outside the allow-list, in any section, its text or its labels', {
  }, async () => {
    await site.load('#lang=zh');
    await page.waitForFunction(() => [...document.querySelectorAll('.article-section')].every((s) => s.querySelector('.section-body > *')));
    await page.waitForTimeout(1500); // first computations fill their views
    const report = await latinWords();
    assert.deepEqual(report, [], `Latin words in the Chinese page:\n${report.join('\n')}`);
  });

  /** Every text or label with ASCII punctuation after a Chinese character. */
  async function asciiPunctuation() {
    return page.evaluate(() => {
      const ascii = /[\u4e00-\u9fff\uff09][:;!?]|[\u4e00-\u9fff],|[\u4e00-\u9fff\uff09] ?\(/;
      const out = new Set();
      const skipped = (el) => el.closest('math, script, style, pre, code, textarea, output, [hidden], [lang]:not([lang^="zh"]):not([data-lang-run])');
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeType === Node.TEXT_NODE) {
          if (n.parentElement && !skipped(n.parentElement) && ascii.test(n.textContent ?? '')) out.add((n.textContent ?? '').trim().slice(0, 80));
        } else if (!skipped(n)) {
          for (const name of ['aria-label', 'title']) {
            const value = n.getAttribute(name);
            if (value && ascii.test(value)) out.add(`${n.tagName.toLowerCase()}[${name}]: ${value.slice(0, 80)}`);
          }
        }
      }
      return [...out];
    });
  }

  test('the article: Chinese punctuation in Chinese text (no ASCII colon, comma or bracket after a Chinese character)', async () => {
    await site.load('#lang=zh');
    await page.waitForFunction(() => [...document.querySelectorAll('.article-section')].every((s) => s.querySelector('.section-body > *')));
    await page.waitForTimeout(1500);
    const found = await asciiPunctuation();
    assert.deepEqual(found, [], `ASCII punctuation in Chinese text:\n${found.join('\n')}`);
  });

  test('the performance page: no Latin word outside the allow-list', async () => {
    await site.load('#lang=zh', '/performance.html');
    await page.waitForSelector('table');
    const report = await latinWords();
    assert.deepEqual(report, [], `Latin words in the Chinese performance page:\n${report.join('\n')}`);
    const punctuation = await asciiPunctuation();
    assert.deepEqual(punctuation, [], `ASCII punctuation in the Chinese performance page:\n${punctuation.join('\n')}`);
  });
});
