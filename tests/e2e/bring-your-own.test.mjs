// Bring your own, in §3.3 of the built page: the model-file picker (a .safetensors file chosen in
// the dialog and one dropped on the zone: the book's model trained in PyTorch and a Transformer
// exported from wasm) shows the config, the vocabularies and the decoding heatmaps; a broken file
// is named inline and the page keeps working; your own pairs train, score on the held-out share,
// decode and download (.safetensors and the page's format, which load back in the picker); a bad
// line is named; a pairs file that is not UTF-8 or is over 1 MiB is refused under the upload field
// in English and Chinese, the pairs kept; the pairs travel in the link when short and the page says
// when they do not.
// §4 mounts the same picker and download for its Transformer.
// Screenshots at 1280 and 390 px in test-artifacts/. Needs a build (npm run build:web).
// Run: node --test tests/e2e/bring-your-own.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { horizontalOverflow, openPanel, startSite, switchLanguage, useSite, waitForCanvasInk } from './harness.mjs';

const REPO_ROOT = new URL('../../', import.meta.url);
const REF = (file) => fileURLToPath(new URL(`shared/reference/${file}`, REPO_ROOT));
const SEC = '#section-translate .translate-section';

describe('bring your own model and pairs (§3.3)', { timeout: 400_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;

  useSite((s) => {
    site = s;
    page = s.page;
  });

  const text = (testId) => page.locator(`${SEC} [data-testid=${testId}]`).textContent();
  /** Waits until the decoding view `prefix` has played to its end and returns its output. */
  async function decoded(prefix) {
    await page.waitForFunction((p) => {
      const d = document.querySelector(`[data-testid=${p}-decode] .translate-decode`);
      return d && d.dataset.steps && d.dataset.step === d.dataset.steps;
    }, prefix);
    return text(`${prefix}-output`);
  }

  /** Drops a file made of `bytes` on the zone, as a browser does for a file dragged in. */
  async function drop(name, bytes) {
    await page.evaluate(({ name, bytes }) => {
      const zone = document.querySelector('[data-testid=translate-file-drop]');
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, { name, bytes: [...bytes] });
  }

  /** The message under the pairs upload ('' when none). */
  const uploadError = () =>
    page.evaluate(() => {
      const id = document.querySelector('[data-testid=translate-pairs-upload]')?.getAttribute('aria-errormessage');
      return (id && document.getElementById(id)?.textContent) ?? '';
    });

  /**
   * A Latin-1 file and one over the core's 1 MiB, chosen in the upload: each refused under the field,
   * naming it, the file and the problem in `lang`; the pairs in the box and in the link stay.
   */
  async function refusedUploads(lang) {
    const upload = page.locator(`${SEC} [data-testid=translate-pairs-upload]`);
    // the reader's pairs reach the link a moment after they are typed: what is kept is that link
    await page.waitForFunction(() => /translate_pairs=/.test(location.hash));
    const kept = { box: await page.inputValue('[data-testid=translate-pairs-text]'), link: await text('translate-pairs-link'), hash: await page.evaluate(() => location.hash) };
    const latin1 = Buffer.concat([Buffer.from('咖哥 喜欢 小冰\tKaGe likes XiaoBing\n'), Buffer.from('\xe9t\xe9\tsummer\n', 'latin1')]);
    const cases = [
      [{ name: 'latin1.tsv', mimeType: 'text/tab-separated-values', buffer: latin1 }, {
        en: 'Upload a .tsv file: latin1.tsv is not UTF-8 text (line 2); save it as UTF-8',
        zh: '上传 .tsv 文件：latin1.tsv 不是 UTF-8 文本（第 2 行）；请存为 UTF-8',
      }],
      [{ name: 'big.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.alloc((1 << 20) + 1, 0x61) }, {
        en: 'Upload a .tsv file: big.tsv is 1,048,577 bytes, over the limit of 1 MiB',
        zh: '上传 .tsv 文件：big.tsv 有 1,048,577 字节，超过上限 1 MiB',
      }],
    ];
    for (const [file, message] of cases) {
      await upload.setInputFiles(file);
      await page.waitForFunction((m) => {
        const line = document.getElementById(document.querySelector('[data-testid=translate-pairs-upload]')?.getAttribute('aria-errormessage') ?? '');
        return line?.textContent === m;
      }, message[lang]);
      assert.equal(await upload.getAttribute('aria-invalid'), 'true', file.name);
      assert.equal(await page.inputValue('[data-testid=translate-pairs-text]'), kept.box, `${file.name}: the pairs in the box were kept`);
      assert.equal(await text('translate-pairs-link'), kept.link, file.name);
      assert.equal(await page.evaluate(() => location.hash), kept.hash, `${file.name}: the link was kept`);
    }
  }

  /** The ink of the decoding's attention map, looked at as a reader does (scrolled to it). */
  async function mapInk() {
    const map = '[data-testid=translate-file-decode] figure.heatmap canvas';
    await page.locator(map).first().scrollIntoViewIfNeeded();
    return waitForCanvasInk(page, map);
  }

  test("the picker opens the book's PyTorch model: config, vocabularies, heatmaps", async () => {
    await site.load('#view=translate');
    await openPanel(page, 'translate-panel-files');
    await page.setInputFiles('[data-testid=translate-file-input]', REF('book_seq2seq.safetensors'));
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-file-message]')?.dataset.kind === 'ok');
    assert.match(await text('translate-file-message'), /^Loaded book_seq2seq\.safetensors: RNN, [\d,]+ parameters\. It translates below; the section’s own model is unchanged\.$/);
    const config = await text('translate-file-config');
    assert.match(config, /format\.safetensors \(book names\)/);
    assert.match(config, /cellRNN/);
    assert.match(config, /hidden size32/);
    assert.match(config, /attentiondot/);
    assert.match(await text('translate-file-vocab-source'), /Source vocabulary \(18 tokens\)咖哥 喜欢 小冰 我 爱/);
    assert.match(await text('translate-file-vocab-target'), /KaGe/);
    assert.equal(await page.inputValue('[data-testid=translate-file-sentence]'), '咖哥 喜欢 小冰');
    assert.equal(await decoded('translate-file'), 'KaGe likes XiaoBing');
    assert.ok((await mapInk()) > 0.05, 'the attention heatmap is drawn');
    // Another sentence of the book
    await page.fill('[data-testid=translate-file-sentence]', '我 爱 学习 人工智能');
    await page.click('[data-testid=translate-file-translate]');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-file-output]')?.textContent === 'I love studying AI');
    await site.screenshot('byo-picker-1280');
    await site.screenshot('byo-picker-panel-1280', { target: page.locator(`${SEC} .mf-panel`) });
  });

  test('a dropped Transformer file shows its layers; a broken file is named and changes nothing', async () => {
    await drop('transformer_note.safetensors', readFileSync(REF('transformer_note.safetensors')));
    await page.waitForFunction(() => /Transformer/.test(document.querySelector('[data-testid=translate-file-message]')?.textContent ?? ''));
    const config = await text('translate-file-config');
    assert.match(config, /modelTransformer/);
    assert.match(config, /layers2/);
    assert.match(config, /heads2/);
    assert.match(config, /tasknote/);
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-file-output]')?.textContent === 'KaGe likes XiaoBing');
    assert.ok((await mapInk()) > 0.05, "the Transformer's attention heatmap is drawn");

    const broken = readFileSync(REF('book_seq2seq.safetensors')).subarray(0, 400);
    await drop('broken.safetensors', broken);
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-file-message]')?.dataset.kind === 'error');
    assert.match(await text('translate-file-message'), /^Could not open broken\.safetensors: .*(truncated|beyond)/);
    // The last good model is still there and still translates.
    assert.match(await text('translate-file-config'), /modelTransformer/);
    await page.click('[data-testid=translate-file-translate]');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-file-output]')?.textContent === 'KaGe likes XiaoBing');
    // Markup in a file name is text, never HTML.
    await drop('<img src=x onerror=alert(1)>.atlb', new TextEncoder().encode('not a model'));
    await page.waitForFunction(() => /not a model|ATLB|model file/i.test(document.querySelector('[data-testid=translate-file-message]')?.textContent ?? ''));
    assert.equal(await page.locator(`${SEC} [data-testid=translate-file-message] img`).count(), 0);
  });

  test('a bad pair line is named; your own pairs train, score, decode and download', async () => {
    await site.load('#view=translate');
    await openPanel(page, 'translate-panel-pairs');
    await openPanel(page, 'translate-panel-files');
    // the example pairs are the default: the link need not carry them, and the panel says so
    await page.locator('[data-testid=translate-pairs-link]').waitFor();
    assert.equal(await text('translate-pairs-link'), 'These are the example pairs: a link to the page brings them back without carrying them.');
    assert.doesNotMatch(await page.evaluate(() => location.hash), /translate_pairs=/);
    await page.fill('[data-testid=translate-pairs-text]', '咖哥 喜欢 小冰\tKaGe likes XiaoBing\nno tab on this line\n');
    await page.click('[data-testid=translate-pairs-train]');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-pairs-message]')?.dataset.kind === 'error');
    assert.equal(await text('translate-pairs-message'), 'Your pairs: line 2: no tab between source and target');
    // a pairs file: refused when it is not UTF-8 or over 1 MiB, in either language; a good one fills the box
    await refusedUploads('en');
    await switchLanguage(page, 'zh', SEC);
    await refusedUploads('zh');
    await page.locator(`${SEC} [data-testid=translate-pairs-upload]`).setInputFiles({ name: 'mine.tsv', mimeType: 'text/plain', buffer: Buffer.from('\ufeff晚安\tGood night\n') });
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-pairs-text]')?.value === '晚安\tGood night\n');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-pairs-upload]`).getAttribute('aria-invalid'), null, 'a good file clears the error');
    assert.equal(await uploadError(), '');
    await switchLanguage(page, 'en', SEC);

    const pairs = [
      ['咖哥 喜欢 小冰', 'KaGe likes XiaoBing'],
      ['我 爱 学习 人工智能', 'I love studying AI'],
      ['深度学习 改变 世界', 'DL changed the world'],
      ['自然 语言 处理 很 强大', 'NLP is so powerful'],
      ['神经网络 非常 复杂', 'Neural-Nets are complex'],
    ];
    await page.fill('[data-testid=translate-pairs-text]', `# mine\n${pairs.map((p) => p.join('\t')).join('\n')}\n`);
    await page.fill('[data-testid=translate-held-out]', '0');
    await page.dispatchEvent('[data-testid=translate-held-out]', 'change');
    await page.fill('[data-testid=translate-pairs-steps]', '150');
    await page.dispatchEvent('[data-testid=translate-pairs-steps]', 'change');
    await page.click('[data-testid=translate-pairs-train]');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-pairs-message]')?.dataset.kind === 'ok', null, { timeout: 120_000 });
    assert.match(await text('translate-pairs-message'), /^Trained 150 steps on 5 pairs\. Nothing was held out, so these scores are on the training pairs: exact match \d+\.\d%, token accuracy \d+\.\d%\.$/);
    assert.ok((await decoded('translate-pairs')).length > 0);

    // The link carries the pairs: a reload restores them.
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /translate_pairs=/);
    assert.match(await text('translate-pairs-link'), /^The page’s address carries these pairs \(\d+ characters\): a link to it brings them back\.$/);

    const saved = async (testId) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testId}]`)]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };
    const st = await saved('translate-pairs-download-safetensors');
    assert.equal(st.name, 'my-pairs.safetensors');
    const n = Number(st.bytes.readBigUInt64LE(0));
    const header = JSON.parse(st.bytes.subarray(8, 8 + n).toString('utf8'));
    assert.equal(JSON.parse(header.__metadata__.config).arch, 'seq2seq');
    assert.equal(header.__metadata__.task, 'pairs');
    assert.ok(header['encoder.embedding.weight'], 'a PyTorch state dict');
    const atlb = await saved('translate-pairs-download-atlb');
    assert.equal(atlb.name, 'my-pairs.atlb');
    assert.equal(atlb.bytes.subarray(0, 4).toString(), 'ATLB');
    // Both load back in the picker.
    await drop('my-pairs.atlb', atlb.bytes);
    await page.waitForFunction(() => /my-pairs\.atlb/.test(document.querySelector('[data-testid=translate-file-message]')?.textContent ?? ''));
    assert.match(await text('translate-file-config'), /taskpairs/);
    await site.screenshot('byo-pairs-1280');
    await site.screenshot('byo-pairs-panel-1280', { target: page.locator(`${SEC} .translate-pairs`) });

    await site.load(hash);
    assert.equal(await page.inputValue('[data-testid=translate-pairs-text]'), `# mine\n${pairs.map((p) => p.join('\t')).join('\n')}\n`);
    assert.equal(await page.inputValue('[data-testid=translate-held-out]'), '0');
  });

  test('a corpus too long for the link says so; the main model downloads after training', async () => {
    const long = Array.from({ length: 150 }, (_, i) => `词${i} 和 词\tword${i} and word`).join('\n');
    await page.fill('[data-testid=translate-pairs-text]', long);
    await page.dispatchEvent('[data-testid=translate-pairs-text]', 'change');
    assert.match(await text('translate-pairs-link'), /^These pairs \(\d+ characters\) are too long for the page’s address, which carries up to 2000: a link keeps the settings but not the pairs\.$/);
    await page.waitForFunction(() => !location.hash.includes('translate_pairs='));

    await openPanel(page, 'translate-panel-files');
    await page.click('[data-testid=translate-download-safetensors]');
    assert.equal(await text('translate-download-message'), 'Train the model first: there is nothing to download yet.');
    await page.click('[data-testid=translate-step]');
    await page.waitForFunction(() => Number(document.querySelector('.translate-section')?.dataset.step) >= 1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=translate-download-safetensors]')]);
    assert.match(download.suggestedFilename(), /^attention-lab-zh-en\.safetensors$/);
  });

  test('§4 has the same picker and download: a Transformer file opens there; the trained Transformer downloads as .safetensors', async () => {
    await site.load('#view=transformer&seed=1');
    await openPanel(page, 'transformer-panel-files');
    await openPanel(page, 'transformer-panel-settings');
    const TF = '#section-transformer .transformer-section';
    await page.locator(`${TF} [data-testid=transformer-file-input]`).waitFor({ state: 'attached' });
    await page.setInputFiles(`${TF} [data-testid=transformer-file-input]`, REF('transformer_note.safetensors'));
    await page.waitForFunction((s) => document.querySelector(`${s} [data-testid=transformer-file-message]`)?.dataset.kind === 'ok', TF);
    assert.match(await page.locator(`${TF} [data-testid=transformer-file-message]`).textContent(), /Transformer/);
    assert.match(await page.locator(`${TF} [data-testid=transformer-file-config]`).textContent(), /modelTransformer/);
    // the decoding view under the file speaks words, not string keys (its labels are §3.3's)
    const keys = await page.locator(`${TF} .transformer-byo`).evaluate((host) => {
      const texts = [host.innerText, ...[...host.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))];
      return texts.flatMap((x) => x.match(/\b(?:translate|transformer|mf)\.[a-zA-Z.]+\b/g) ?? []);
    });
    assert.deepEqual(keys, [], 'no raw string keys in §4’s model-file panel');

    await page.click(`${TF} [data-testid=transformer-download-safetensors]`);
    assert.equal(await page.locator(`${TF} [data-testid=transformer-download-message]`).textContent(), 'Train the model first: there is nothing to download yet.');
    await page.fill('[data-testid=transformer-steps]', '10');
    await page.dispatchEvent('[data-testid=transformer-steps]', 'change');
    await page.click('[data-testid=transformer-train]');
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 2, TF);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${TF} [data-testid=transformer-download-safetensors]`)]);
    assert.match(download.suggestedFilename(), /^attention-lab-transformer-dates\.safetensors$/);
  });

  test('390 px and Chinese: the panels fit and speak Chinese', async () => {
    const narrow = await startSite({ viewport: { width: 390, height: 844 } });
    try {
      await narrow.load('#view=translate&lang=zh');
      const p = narrow.page;
      await openPanel(p, 'translate-panel-files');
      await openPanel(p, 'translate-panel-pairs');
      await p.setInputFiles('[data-testid=translate-file-input]', REF('book_seq2seq.safetensors'));
      await p.waitForFunction(() => document.querySelector('[data-testid=translate-file-message]')?.dataset.kind === 'ok');
      assert.match(await p.locator('[data-testid=translate-file-message]').textContent(), /^已载入 book_seq2seq\.safetensors/);
      assert.equal(await p.locator(`${SEC} .mf-panel > h3`).textContent(), '打开模型文件');
      assert.equal(await p.locator(`${SEC} .translate-pairs > h3`).textContent(), '你自己的句对');
      assert.equal(await horizontalOverflow(p), 0, 'nothing scrolls sideways at 390 px');
      await narrow.screenshot('byo-picker-390');
      await narrow.screenshot('byo-picker-panel-390', { target: p.locator(`${SEC} .mf-panel`) });
      narrow.problems.assertNone();
    } finally {
      await narrow.close();
    }
  });
});
