// The widget kit's README.html: how to put the widgets on a site, with the snippets for the kit's
// default place (./attention-lab-widgets/ beside the post). The site's Embed dialog writes the same
// lines for any place and for the view on screen (web/src/embed/embed-snippets.ts).
const KIT = './attention-lab-widgets/';

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const code = (s) => `<pre><code>${escapeHtml(s)}</code></pre>`;

const ELEMENTS = [
  ['A heatmap of your own numbers (no worker, no wasm)', `<attention-heatmap data='{"title":"weights","rows":["I","love","cats"],"cols":["I","love","cats"],"values":[[0.7,0.2,0.1],[0.1,0.8,0.1],[0.2,0.2,0.6]],"range":[0,1]}'></attention-heatmap>`],
  ['A live heatmap of a sentence', '<attention-heatmap mechanism="self" text="the cat sat on the mat" seed="3"></attention-heatmap>'],
  ['Dot-product attention (§3.1–3.2)', '<attention-playground mechanism="scaled-dot" seed="3"></attention-playground>'],
  ['Self-attention (§3.5)', '<attention-playground mechanism="self"></attention-playground>'],
  ['Multi-head attention (§3.6)', '<multihead-view></multihead-view>'],
  ['A Seq2Seq translator that trains in the page (§3.3)', '<seq2seq-demo task="dates"></seq2seq-demo>'],
  ['A Transformer that trains in the page (§4)', '<transformer-demo task="dates"></transformer-demo>'],
  ['A small GPT that trains on the Tang poems and writes one character at a time (§5; it fetches poems/tang300.txt from the kit when it comes into view)', '<gpt-demo gpt_prompt="床前"></gpt-demo>'],
];

export function kitReadme() {
  const parts = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>AttentionLab widget kit</title></head>',
    '<body>',
    '<h1>AttentionLab widget kit</h1>',
    '<p>Interactive attention figures for your own pages. Copy this whole folder (<code>attention-lab-widgets/</code>) next to your post, or anywhere on your site, and add the lines below. Every file is found relative to <code>attention-lab-widgets.js</code>, so any folder works: change the <code>./attention-lab-widgets/</code> prefix to where you put it. The site’s “Embed” button writes these lines for the view you are looking at.</p>',
    '<h2>1. The script, once per page</h2>',
    code(`<script src="${KIT}attention-lab-widgets.js" defer></script>`),
    '<h2>2. The widgets</h2>',
    ...ELEMENTS.flatMap(([title, snippet]) => [`<h3>${escapeHtml(title)}</h3>`, code(snippet)]),
    '<p>A figure’s “Export → JSON” file from the site is exactly the <code>data</code> attribute’s format: paste it in as it is.</p>',
    '<h2>3. Or an iframe (hosts that allow no scripts in posts)</h2>',
    code(`<iframe data-attention-lab src="${KIT}embed.html#view=dot&amp;seed=3" title="AttentionLab: dot" width="100%" height="700" frameborder="0" loading="lazy"></iframe>\n<script src="${KIT}embed-resize.js" defer></script>`),
    '<p><code>embed-resize.js</code> sizes each <code>data-attention-lab</code> iframe to its content; without it the frame keeps its <code>height</code>.</p>',
    '<h2>Content-Security-Policy</h2>',
    '<p>With the kit on your own site, a strict policy only needs <code>\'wasm-unsafe-eval\'</code> (the widgets compute in WebAssembly):</p>',
    code("Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; frame-src 'self'"),
    '<p>Loading the kit from another origin instead needs that origin in <code>script-src</code>, <code>connect-src</code> and <code>worker-src</code>, plus <code>worker-src blob:</code> (the worker is started through a small blob: module), and an <code>Access-Control-Allow-Origin</code> header on the kit’s server. Copying the folder is simpler.</p>',
    '<h2>Markdown (Hexo, Hugo, Jekyll)</h2>',
    '<p>Put the lines in a raw HTML block: a blank line before and after, no indentation. Hugo’s Goldmark needs <code>markup.goldmark.renderer.unsafe = true</code>; markdown-it (Hexo’s renderer and VitePress) needs <code>html: true</code>; Jekyll’s kramdown passes HTML blocks through as they are. Without that, the renderer escapes the elements and the page shows them as text.</p>',
    '<h2>Themes</h2>',
    '<p>Widgets follow the page: its <code>color-scheme</code>, its background, and the reader’s <code>prefers-color-scheme</code>. <code>theme="light"</code> or <code>theme="dark"</code> on an element fixes it. The colours are CSS custom properties a page may set on the elements: <code>--lab-ink</code>, <code>--lab-muted</code>, <code>--lab-line</code>, <code>--lab-panel</code>, <code>--lab-bg</code>, <code>--lab-accent</code>, <code>--lab-font</code> and the others listed in the project’s docs/embedding.md, for example:</p>',
    code('attention-playground, attention-heatmap { --lab-accent: #b45309; --lab-font: Georgia, serif; }'),
    '<h2>Opened from disk</h2>',
    '<p>Browsers do not run the widgets’ modules, worker or WebAssembly on a page opened as a file (<code>file://</code>). There, heatmaps given their numbers still draw, and every other widget says in its place that a web server is needed: run <code>npx serve</code> or <code>python3 -m http.server</code> in the folder and open <code>http://localhost:…</code>. For one file that works offline, use a figure’s “Export → Standalone HTML” on the site.</p>',
    '<h2>Licence</h2>',
    '<p>MIT: see <code>LICENSE</code> in this folder.</p>',
    '</body>',
    '</html>',
    '',
  ];
  return parts.join('\n');
}
