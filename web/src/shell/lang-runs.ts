// Runs of the other language marked with their own `lang`, so a screen reader reads them with the
// right voice and rules: the English page shows Chinese words (the note's sentences, vocabularies,
// tokens) and the Chinese page English ones (translations, model names). Any text that appears on
// the page is looked at, whichever code wrote it: a run of the other language inside a text node is
// wrapped in a <span lang>, a text that is all of it marks its own element (a control, an SVG
// label). The page's own language is <html lang>, which the shell sets. What is marked here carries
// data-lang-run, so a check of the page's words can tell it from text a section gave a language
// on purpose (a model's English output): tests/e2e/chinese-words.test.mjs.

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
/** Han characters with the punctuation between them: one run */
const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff][\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\s·]*/g;
/** Latin words (at least two letters each) with what stands between them in a phrase */
const LATIN_RUN = /[A-Za-z][A-Za-z'’-]+(?:[\s,.:;!?()'’0-9-]+[A-Za-z][A-Za-z'’-]+)*/g;
/** where the text is not prose, or cannot hold an element */
const SKIP = new Set(['SCRIPT', 'STYLE', 'TEXTAREA', 'CANVAS', 'svg:style']);
const NO_CHILDREN = new Set(['OPTION', 'TITLE']);

type Page = 'en' | 'zh';

const pageOf = (): Page => (document.documentElement.lang.startsWith('zh') ? 'zh' : 'en');
const langOf = (node: Node): string => (node.parentElement?.closest('[lang]')?.getAttribute('lang') ?? '').toLowerCase();

/** The other language's runs in `text` (start, end), if any. */
function runs(text: string, page: Page): [number, number][] {
  const re = page === 'en' ? HAN_RUN : LATIN_RUN;
  return Array.from(text.matchAll(re), (m) => [m.index, m.index + m[0].trimEnd().length] as [number, number]);
}

/** Marks the other language's runs in one text node. */
function markText(node: Text, page: Page): void {
  const parent = node.parentElement;
  const text = node.data;
  // a hidden <output> carries a figure's data for scripts and tests, not text to read
  if (!parent || SKIP.has(parent.tagName) || (parent.tagName === 'OUTPUT' && parent.hidden) || text.trim() === '') return;
  const other = page === 'en' ? 'zh-CN' : 'en';
  const inOther = langOf(node).startsWith(other.slice(0, 2));
  if (inOther) return;
  const found = runs(text, page);
  if (found.length === 0) return;
  // all of it, or in an element that cannot hold a span (SVG text, a control's own label): the element
  const whole = found.length === 1 && found[0][0] === text.search(/\S/) && found[0][1] === text.trimEnd().length;
  if ((whole && parent.childNodes.length === 1) || parent.namespaceURI !== document.documentElement.namespaceURI || NO_CHILDREN.has(parent.tagName)) {
    if (page === 'zh' && HAN.test(text)) return; // mixed and unsplittable: the page's language stays
    parent.setAttribute('lang', other);
    parent.dataset.langRun = '';
    return;
  }
  const pieces: Node[] = [];
  let at = 0;
  for (const [start, end] of found) {
    if (start > at) pieces.push(document.createTextNode(text.slice(at, start)));
    const span = document.createElement('span');
    span.lang = other;
    span.dataset.langRun = '';
    span.textContent = text.slice(start, end);
    pieces.push(span);
    at = end;
  }
  if (at < text.length) pieces.push(document.createTextNode(text.slice(at)));
  node.replaceWith(...pieces);
}

function markTree(root: Node, page: Page): void {
  if (root.nodeType === Node.TEXT_NODE) return markText(root as Text, page);
  if (!(root instanceof Element) || SKIP.has(root.tagName)) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
  for (const t of texts) markText(t, page);
}

/**
 * Marks the runs under `root` now and whenever its text changes (once per frame, only what
 * changed); `language`: the language of the text under `root` (default: the page's, <html lang>).
 * Returns a function that stops watching.
 */
export function watchLanguageRuns(root: Element, language?: Page): () => void {
  let pending = new Set<Node>();
  let frame = 0;
  const flush = () => {
    frame = 0;
    const page = language ?? pageOf();
    const nodes = pending;
    pending = new Set();
    for (const n of nodes) if (n.isConnected) markTree(n, page);
    observer.takeRecords(); // its own changes are marked already
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'characterData') pending.add(r.target);
      else r.addedNodes.forEach((n) => pending.add(n));
    }
    if (pending.size && !frame) frame = requestAnimationFrame(flush);
  });
  markTree(root, language ?? pageOf());
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  return () => {
    observer.disconnect();
    if (frame) cancelAnimationFrame(frame);
  };
}
