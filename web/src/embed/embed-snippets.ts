// The "Embed" button's two snippets for the current view: a script tag plus a custom element (for
// hosts that allow scripts), and an iframe of embed.html (for hosts that do not). Both carry the
// section's settings that differ from the defaults, the seed and the language, so the embed shows
// what the reader sees. Values are escaped for an HTML attribute: the snippet is pasted into HTML.
// No style attribute: a host page with a strict style-src would refuse it (frameborder="0" instead).
import type { AppState } from '../state';
import { PROPS, type SectionId } from '../state-table';
import { isEmbeddable, type EmbeddableSection } from '../widgets/sections';
import { RECIPES, type TaskName } from '../sections/translate-recipes';

/** the kit's files a snippet names, relative to the kit's folder (scripts/build-kit.mjs writes them) */
export const KIT_SCRIPT = 'attention-lab-widgets.js';
export const KIT_EMBED_PAGE = 'embed.html';
export const KIT_RESIZE_SCRIPT = 'embed-resize.js';
/** where the dialog proposes to put the kit: a folder beside the post */
export const DEFAULT_KIT_PLACE = './attention-lab-widgets/';

/** the element and its own attribute for each section; `from` is the setting that attribute replaces */
const ELEMENTS: Record<EmbeddableSection, (state: AppState) => { tag: string; own: [string, string][]; from?: string }> = {
  dot: (s) => ({ tag: 'attention-playground', own: [['mechanism', s.get('dot_score') === 'dot' ? 'dot' : 'scaled-dot']], from: 'dot_score' }),
  self: () => ({ tag: 'attention-playground', own: [['mechanism', 'self']] }),
  multihead: () => ({ tag: 'multihead-view', own: [] }),
  translate: (s) => ({ tag: 'seq2seq-demo', own: [['task', s.get('translate_task')], ...offRecipe(s)], from: 'translate_task' }),
  why: () => ({ tag: 'attention-playground', own: [['mechanism', 'why']] }),
  idea: () => ({ tag: 'attention-playground', own: [['mechanism', 'idea']] }),
  transformer: (s) => ({ tag: 'transformer-demo', own: [['task', s.get('transformer_task')]], from: 'transformer_task' }),
  gpt: () => ({ tag: 'gpt-demo', own: [] }),
};

/**
 * `task` brings its recipe's cell, hidden size and learning rate into the widget
 * (widgets/section-widget.ts): the settings that differ from it go in explicitly, defaults or not.
 */
function offRecipe(s: AppState): [string, string][] {
  const recipe = RECIPES[s.get('translate_task') as TaskName];
  const now: [string, string, string][] = [
    ['translate_cell', s.get('translate_cell'), recipe.cell],
    ['translate_hidden', String(s.get('translate_hidden')), String(recipe.hidden)],
    ['translate_lr', String(s.get('translate_lr')), String(recipe.lr)],
  ];
  return now.filter(([, value, wanted]) => value !== wanted).map(([name, value]) => [name, value]);
}

/** iframe heights when the view could not be measured (a typical blog column width) */
const IFRAME_HEIGHT: Record<EmbeddableSection, number> = {
  idea: 900,
  dot: 760,
  self: 700,
  multihead: 760,
  translate: 860,
  why: 720,
  transformer: 1500,
  gpt: 1300,
};

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The state's entries that belong to `sectionId` (its settings, seed, lang and their hide switches). */
export function sectionEntries(state: AppState, sectionId: SectionId): [string, string][] {
  // by the name's slug: the build leaves the table's `section`s out (web/vite.config.ts)
  const mine = new Set<string>(PROPS.filter((p) => p.name.startsWith(`${sectionId}_`) || p.name === 'seed' || p.name === 'lang').map((p) => p.name));
  mine.add('controls');
  return state.entries().filter(([name]) => mine.has(name) || (name.endsWith('_hide') && mine.has(name.slice(0, -5))));
}

/** Bounds of a measured iframe height (CSS pixels). */
export const IFRAME_MIN_HEIGHT = 240;
export const IFRAME_MAX_HEIGHT = 6000;

/**
 * The iframe's first height for a view measured `measured` px tall in the app (embed-resize.js then
 * sizes it to its content): embed.html adds a little frame around the section, and a narrower blog
 * column wraps text onto more lines (10% more).
 */
export function iframeHeight(measured: number): number {
  return Math.min(IFRAME_MAX_HEIGHT, Math.max(IFRAME_MIN_HEIGHT, Math.ceil((measured * 1.1 + 32) / 10) * 10));
}

/** Where the kit lives, as the reader typed it: its folder's address (ending in '/') and its origin, if another. */
export interface KitPlace {
  /** the folder, as it goes into the snippets: relative ('./x/', '../x/', '/x/') or absolute http(s) */
  folder: string;
  /** the kit's origin when the folder is an absolute URL, for the CSP lines */
  origin: string | null;
}

/**
 * Checks the kit's place the reader typed (the dialog's "Where will the kit be" field): a relative
 * path or an http(s) URL of a folder; quotes, angle brackets, spaces and other schemes are refused
 * with a message, never escaped into something else.
 */
export function kitPlace(text: string): KitPlace {
  const t = text.trim();
  if (t === '') throw new RangeError('the kit’s folder is empty: give a path such as ./attention-lab-widgets/');
  if (/["'<>`\s\\]/.test(t)) throw new RangeError('the kit’s folder may not contain spaces, quotes, angle brackets or backslashes');
  if (t.length > 300) throw new RangeError('the kit’s folder is longer than 300 characters');
  const folder = t.endsWith('/') ? t : `${t}/`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(folder)) {
    let url: URL;
    try {
      url = new URL(folder);
    } catch {
      throw new RangeError(`the kit’s folder is not a valid address: ${t.slice(0, 80)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError(`the kit’s folder must be a path or an http(s) address, not ${url.protocol}`);
    if (url.search || url.hash) throw new RangeError('the kit’s folder may not have a ?query or #hash');
    return { folder: url.href, origin: url.origin };
  }
  if (/[?#]/.test(folder)) throw new RangeError('the kit’s folder may not have a ?query or #hash');
  if (folder.startsWith('//')) throw new RangeError('the kit’s folder must be a path or an address with https://');
  return { folder, origin: null };
}

/** The Content-Security-Policy the host needs for widgets and iframes from `place`. */
export function hostCsp(place: KitPlace): string {
  if (!place.origin) {
    return "Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; frame-src 'self'";
  }
  // from another origin: the module import and the wasm fetch are CORS requests to it, and the
  // worker starts through a same-origin blob: module (widgets/start-worker.ts) whose imports, being
  // a worker's, are checked against worker-src
  const o = place.origin;
  return `Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval' ${o}; connect-src 'self' ${o}; worker-src 'self' blob: ${o}; frame-src 'self' ${o}`;
}

export interface Snippets {
  /** the kit's script tag and the element */
  script: string;
  /** the iframe of the kit's embed.html and the script that sizes it */
  iframe: string;
  /** the element for Hexo and Jekyll posts (a raw block, so their template engines leave it alone) */
  markdown: string;
  /** the policy line the host's server sends */
  csp: string;
}

/** The script tag every snippet starts with (once per page). */
export function kitScriptTag(place: KitPlace): string {
  return `<script src="${escapeAttribute(place.folder + KIT_SCRIPT)}" defer></script>`;
}

/** Wraps HTML for Hexo (Nunjucks) and Jekyll (Liquid), whose template tags `{{`/`{%` it may contain. */
export function markdownBlock(html: string): string {
  return `{% raw %}\n${html}\n{% endraw %}`;
}

/** The snippets for `sectionId` as the reader sees it now, for a kit at `place`. */
export function embedSnippets(state: AppState, sectionId: SectionId, place: KitPlace, { measuredHeight }: { measuredHeight?: number } = {}): Snippets {
  if (!isEmbeddable(sectionId)) throw new RangeError(`the ${sectionId} section cannot be embedded`);
  const entries = sectionEntries(state, sectionId);

  const { tag, own, from } = ELEMENTS[sectionId](state);
  const attributes = [...own, ...entries.filter(([name]) => name !== from && !own.some(([n]) => n === name))]
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  const element = `<${tag}${attributes}></${tag}>`;
  const script = `${kitScriptTag(place)}\n${element}`;

  const hash = new URLSearchParams([['view', sectionId], ...entries]).toString();
  const src = `${place.folder}${KIT_EMBED_PAGE}#${hash}`;
  const height = measuredHeight && measuredHeight > 0 ? iframeHeight(measuredHeight) : IFRAME_HEIGHT[sectionId];
  const iframe =
    `<iframe data-attention-lab src="${escapeAttribute(src)}" title="AttentionLab: ${sectionId}" width="100%" ` +
    `height="${height}" frameborder="0" loading="lazy"></iframe>\n` +
    `<script src="${escapeAttribute(place.folder + KIT_RESIZE_SCRIPT)}" defer></script>`;
  return { script, iframe, markdown: markdownBlock(script), csp: hostCsp(place) };
}

/** The snippets of one given matrix: an <attention-heatmap> with its numbers in the data attribute. */
export function matrixSnippets(dataJson: string, place: KitPlace): Snippets {
  const script = `${kitScriptTag(place)}\n<attention-heatmap data="${escapeAttribute(dataJson)}"></attention-heatmap>`;
  return { script, iframe: '', markdown: markdownBlock(script), csp: hostCsp(place) };
}
