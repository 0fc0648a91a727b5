// Unit tests of the widget layer's pure modules: the matrix JSON of <attention-heatmap>, the "Embed"
// button's snippets, and the README's attribute table. The TypeScript is loaded through Vite's SSR
// module loader (setup.mjs; no browser, no build needed). Run: node --test tests/web/widgets.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { attributeTable, BEGIN, END, loadProps } from '../../scripts/attribute-table.mjs';
import { loadWeb } from './setup.mjs';

const spec = await loadWeb('widgets/matrix-spec');
const snippets = await loadWeb('embed/embed-snippets');
const { AppState } = await loadWeb('state');
const { PROPS } = await loadWeb('state-table');

describe('widget modules', () => {
  test('a matrix with labels, nested or flat values', () => {
    const nested = spec.parseMatrixSpec('{"rows": ["a", "b"], "cols": ["x", "y", "z"], "values": [[1, 2, 3], [4, 5, 6]], "title": "T", "range": [0, 10]}');
    assert.deepEqual(nested, { rowLabels: ['a', 'b'], colLabels: ['x', 'y', 'z'], values: [1, 2, 3, 4, 5, 6], title: 'T', range: [0, 10] });
    const flat = spec.parseMatrixSpec('{"rows": 2, "cols": 2, "values": [0.5, 0.5, -1, 1e3]}');
    assert.deepEqual(flat.rowLabels, ['1', '2']);
    assert.deepEqual(flat.values, [0.5, 0.5, -1, 1000]);
    assert.equal(flat.range, null);
  });

  test("a heatmap's JSON export (counts plus labels) is taken as it is", () => {
    const exported = { title: 'softmax(q·k/√d)', rows: 2, cols: 3, rowLabels: ['q1', 'q2'], colLabels: ['k1', 'k2', 'k3'], values: [0.2, 0.3, 0.5, 1, 0, 0], range: [0, 1] };
    assert.deepEqual(spec.parseMatrixSpec(JSON.stringify(exported)), { rowLabels: ['q1', 'q2'], colLabels: ['k1', 'k2', 'k3'], values: exported.values, title: exported.title, range: [0, 1] });
    // a constant matrix exports its own range, min = max
    assert.deepEqual(spec.parseMatrixSpec('{"rows": 1, "cols": 1, "values": [2], "range": [2, 2]}').range, [2, 2]);
    assert.throws(() => spec.parseMatrixSpec(JSON.stringify({ ...exported, rows: 3 })), /rows must be the number of rowLabels \(2\) when both are given/);
    assert.throws(() => spec.parseMatrixSpec(JSON.stringify({ ...exported, colLabels: 'k' })), /colLabels is missing/);
  });

  test('bad matrices are rejected with a message naming the problem', () => {
    const cases = [
      ['not json', /not valid JSON/],
      ['[1, 2]', /must be a JSON object/],
      ['null', /must be a JSON object/],
      ['{"rows": 2, "cols": 2, "values": [1, 2, 3]}', /values has 3 numbers, expected 2 × 2 = 4/],
      ['{"rows": 2, "cols": 2, "values": [[1, 2], [3]]}', /values row 2 must have 2 numbers/],
      ['{"rows": 1, "cols": 2, "values": [[1, 2], [3, 4]]}', /values has 2 rows but rows has 1/],
      ['{"rows": 1, "cols": 2, "values": [1, "2"]}', /entry 1, 2 is not a finite number/],
      ['{"rows": 1, "cols": 1, "values": [1e999]}', /not a finite number/],
      ['{"rows": 0, "cols": 1, "values": []}', /rows must be a whole number from 1 to 64/],
      ['{"rows": 65, "cols": 1, "values": []}', /rows must be a whole number/],
      ['{"rows": 1.5, "cols": 1, "values": [1]}', /rows must be a whole number/],
      ['{"cols": 1, "values": [1]}', /rows is missing/],
      ['{"rows": [{}], "cols": 1, "values": [1]}', /rows\[0\] must be a string/],
      [`{"rows": ["${'x'.repeat(41)}"], "cols": 1, "values": [1]}`, /rows\[0\] is longer than 40/],
      ['{"rows": ["a\\u0000"], "cols": 1, "values": [1]}', /control characters/],
      ['{"rows": 1, "cols": 1, "values": [1], "onload": 1}', /unknown key "onload"/],
      ['{"rows": 1, "cols": 1, "values": [1], "range": [1, 0]}', /range must be \[min, max\]/],
      ['{"rows": 1, "cols": 1, "values": [1], "title": 5}', /title must be a string/],
      [' '.repeat(100_001), /longer than 100000/],
    ];
    for (const [text, message] of cases) assert.throws(() => spec.parseMatrixSpec(text), message, text.slice(0, 60));
  });

  test('the embed snippets carry the section settings, escaped for HTML, addressed from the kit', () => {
    const { state } = AppState.fromHash('#seed=7&dot_score=dot&dot_d=6&multihead_heads=4&dot_n_hide=1');
    const kit = snippets.kitPlace(snippets.DEFAULT_KIT_PLACE);
    const { script, iframe, markdown, csp } = snippets.embedSnippets(state, 'dot', kit);
    assert.equal(
      script,
      '<script src="./attention-lab-widgets/attention-lab-widgets.js" defer></script>\n' +
        '<attention-playground mechanism="dot" seed="7" dot_d="6" dot_n_hide="1"></attention-playground>',
    );
    assert.equal(
      iframe,
      '<iframe data-attention-lab src="./attention-lab-widgets/embed.html#view=dot&amp;seed=7&amp;dot_score=dot&amp;dot_d=6&amp;dot_n_hide=1" ' +
        'title="AttentionLab: dot" width="100%" height="760" frameborder="0" loading="lazy"></iframe>\n' +
        '<script src="./attention-lab-widgets/embed-resize.js" defer></script>',
    );
    assert.equal(markdown, `{% raw %}\n${script}\n{% endraw %}`);
    assert.equal(csp, "Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; frame-src 'self'");
    // multihead_heads belongs to another section: not in the dot snippet
    assert.doesNotMatch(script + iframe, /multihead_heads/);

    const hostile = AppState.fromHash(`#translate_text=${encodeURIComponent('"><img src=x onerror=alert(1)> & \'')}`).state;
    const t = snippets.embedSnippets(hostile, 'translate', kit);
    assert.match(t.script, /<seq2seq-demo task="zh-en" seed="1" translate_text="&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt; &amp; &#39;"><\/seq2seq-demo>$/);
    assert.doesNotMatch(t.script + t.iframe, /"><img/);
    // task="note" brings the book's recipe into the widget: the snippet names what differs from it
    const book = AppState.fromHash('#translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001').state;
    assert.match(snippets.embedSnippets(book, 'translate', kit).script, /<seq2seq-demo task="note" seed="1" translate_cell="rnn" translate_hidden="128" translate_lr="0.001"><\/seq2seq-demo>$/);
    const gru = AppState.fromHash('#translate_task=note&translate_hidden=128').state;
    assert.match(snippets.embedSnippets(gru, 'translate', kit).script, /<seq2seq-demo task="note" translate_cell="gru" translate_lr="0.01" seed="1" translate_hidden="128"><\/seq2seq-demo>$/);
    // the iframe's hash decodes back to the same state
    const src = /src="([^"]+)"/.exec(t.iframe)[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    const back = AppState.fromHash(new URL(src, 'https://blog.example/post/').hash);
    assert.equal(back.state.get('translate_text'), hostile.get('translate_text'));
    assert.equal(back.state.get('view'), 'translate');
    assert.deepEqual(back.rejected, []);

    assert.match(snippets.embedSnippets(AppState.fromHash('#multihead_d=8').state, 'multihead', kit).script, /<multihead-view seed="1" multihead_d="8">/);
    assert.match(snippets.embedSnippets(AppState.fromHash('').state, 'self', kit).script, /<attention-playground mechanism="self" seed="1">/);
    // §4: <transformer-demo>, its task as the short `task` attribute, the other transformer_ settings as they are
    const tf = snippets.embedSnippets(AppState.fromHash('#transformer_task=zh-en&transformer_heads=2&multihead_d=8').state, 'transformer', kit);
    assert.match(tf.script, /<transformer-demo task="zh-en" [^>]*transformer_heads="2"[^>]*><\/transformer-demo>$/);
    assert.doesNotMatch(tf.script, /transformer_task|multihead_d/);
    assert.match(tf.iframe, /embed\.html#view=transformer&amp;[^"]*transformer_task=zh-en/);
    assert.throws(() => snippets.embedSnippets(state, 'performance', kit), /cannot be embedded/);
  });

  test('§5: <gpt-demo> carries every GPT setting of the state table, and reads them back as they were', () => {
    const kit = snippets.kitPlace(snippets.DEFAULT_KIT_PLACE);
    // each §5 setting away from its default (the prompt with characters HTML must not read)
    const changed = { gpt_steps: '120', gpt_drills: '0.5', gpt_prompt: '白日"<&', gpt_temperature: '0.5', gpt_top_k: '7', gpt_top_p: '0.9', gpt_layer: '1', gpt_head: '3', gpt_open_settings: '1', gpt_open_text: '1', gpt_open_heads: '1', gpt_zero: '1.2,2.4' };
    const gptProps = PROPS.filter((p) => p.section === 'gpt').map((p) => p.name);
    assert.deepEqual(Object.keys(changed).sort(), [...gptProps].sort(), 'a §5 setting this test does not change');
    const { state, rejected } = AppState.fromEntries([['seed', '5'], ['multihead_d', '8'], ...Object.entries(changed)]);
    assert.deepEqual(rejected, []);
    const { script, iframe } = snippets.embedSnippets(state, 'gpt', kit);
    const element = script.split('\n')[1];
    assert.match(element, /^<gpt-demo [^<>]*><\/gpt-demo>$/);
    assert.doesNotMatch(element, /multihead_d|view=/, 'only §5’s settings, the seed and the language');
    const attributes = [...element.matchAll(/ ([a-z_]+)="([^"]*)"/g)].map(([, name, value]) => [name, value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')]);
    const back = AppState.fromEntries(attributes);
    assert.deepEqual(back.rejected, []);
    for (const [name, value] of Object.entries(changed)) assert.equal(String(back.state.get(name)), name.startsWith('gpt_open_') ? 'true' : value, name);
    assert.equal(back.state.get('seed'), 5);
    assert.match(iframe, /embed\.html#view=gpt&amp;seed=5&amp;/);
  });

  test("the kit's place: relative folders, absolute https folders with their CSP, and refusals", () => {
    assert.deepEqual(snippets.kitPlace('  ../static/lab '), { folder: '../static/lab/', origin: null });
    assert.deepEqual(snippets.kitPlace('/assets/lab/'), { folder: '/assets/lab/', origin: null });
    const cdn = snippets.kitPlace('https://cdn.example.org/lab');
    assert.deepEqual(cdn, { folder: 'https://cdn.example.org/lab/', origin: 'https://cdn.example.org' });
    assert.match(snippets.embedSnippets(AppState.fromHash('').state, 'self', cdn).script, /^<script src="https:\/\/cdn\.example\.org\/lab\/attention-lab-widgets\.js" defer>/);
    assert.equal(
      snippets.hostCsp(cdn),
      "Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval' https://cdn.example.org; connect-src 'self' https://cdn.example.org; worker-src 'self' blob: https://cdn.example.org; frame-src 'self' https://cdn.example.org",
    );
    const refused = [
      ['', /empty/],
      ['./a"b/', /quotes/],
      ['./<x>/', /angle brackets/],
      ['./my kit/', /spaces/],
      ['javascript:alert(1)', /path or an http\(s\) address, not javascript:/],
      ['//cdn.example.org/lab/', /https:\/\//],
      ['./kit/?v=1', /\?query or #hash/],
      ['x'.repeat(301), /longer than 300/],
    ];
    for (const [text, message] of refused) assert.throws(() => snippets.kitPlace(text), message, text);
  });

  test("README's attribute table is the one generated from PROPS", async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const start = readme.indexOf(BEGIN);
    assert.ok(start >= 0, 'README.md has no generated attribute table');
    const current = readme.slice(start + BEGIN.length, readme.indexOf(END)).trim();
    const props = await loadProps();
    assert.equal(current, attributeTable(props), 'run node scripts/attribute-table.mjs and paste its output into README.md');
    for (const p of props) assert.match(current, new RegExp(`\\| \`${p.name}\` \\|`));
  });
});
