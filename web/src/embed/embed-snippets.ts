// The "Embed" button's two snippets for the current view: a script tag plus a custom element (for
// hosts that allow scripts), and an iframe of embed.html (for hosts that do not). Both carry the
// section's settings that differ from the defaults, the seed and the language, so the embed shows
// what the reader sees. Values are escaped for an HTML attribute: the snippet is pasted into HTML.
// No style attribute: a host page with a strict style-src would refuse it (frameborder="0" instead).
import type { AppState } from '../state';
import { PROPS, type SectionId } from '../state-table';
import { RECIPES, type TaskName } from '../sections/translate-recipes';

/** where the built site keeps them, relative to its root (the app's own folder) */
export const WIDGET_SCRIPT_PATH = 'widgets/attention-lab-widgets.js';
export const EMBED_PAGE_PATH = 'embed.html';

/** the element and its own attribute for each section; `from` is the setting that attribute replaces */
const ELEMENTS: Record<Exclude<SectionId, 'performance'>, (state: AppState) => { tag: string; own: [string, string][]; from?: string }> = {
  dot: (s) => ({ tag: 'attention-playground', own: [['mechanism', s.get('dot_score') === 'dot' ? 'dot' : 'scaled-dot']], from: 'dot_score' }),
  self: () => ({ tag: 'attention-playground', own: [['mechanism', 'self']] }),
  multihead: () => ({ tag: 'multihead-view', own: [] }),
  translate: (s) => ({ tag: 'seq2seq-demo', own: [['task', s.get('s2s_task')], ...offRecipe(s)], from: 's2s_task' }),
  why: () => ({ tag: 'attention-playground', own: [['mechanism', 'why']] }),
  idea: () => ({ tag: 'attention-playground', own: [['mechanism', 'idea']] }),
  transformer: (s) => ({ tag: 'transformer-demo', own: [['task', s.get('tf_task')]], from: 'tf_task' }),
};

/**
 * `task` brings its recipe's cell, hidden size and learning rate into the widget
 * (widgets/section-widget.ts): the settings that differ from it go in explicitly, defaults or not.
 */
function offRecipe(s: AppState): [string, string][] {
  const recipe = RECIPES[s.get('s2s_task') as TaskName];
  const now: [string, string, string][] = [
    ['s2s_cell', s.get('s2s_cell'), recipe.cell],
    ['s2s_hidden', String(s.get('s2s_hidden')), String(recipe.hidden)],
    ['s2s_lr', String(s.get('s2s_lr')), String(recipe.lr)],
  ];
  return now.filter(([, value, wanted]) => value !== wanted).map(([name, value]) => [name, value]);
}

/** iframe heights when the view could not be measured (a typical blog column width) */
const IFRAME_HEIGHT: Record<Exclude<SectionId, 'performance'>, number> = {
  idea: 900,
  dot: 760,
  self: 700,
  multihead: 760,
  translate: 860,
  why: 720,
  transformer: 1500,
};

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The state's entries that belong to `sectionId` (its settings, seed, lang and their hide switches). */
export function sectionEntries(state: AppState, sectionId: SectionId): [string, string][] {
  const mine = new Set<string>(PROPS.filter((p) => p.section === sectionId || p.name === 'seed' || p.name === 'lang').map((p) => p.name));
  mine.add('controls');
  return state.entries().filter(([name]) => mine.has(name) || (name.endsWith('_hide') && mine.has(name.slice(0, -5))));
}

/**
 * The snippets for `sectionId` as the app at `appUrl` shows it. The app's page is at the root of the
 * built site, which may itself sit in a sub-folder of its host (https://user.github.io/lab/), so the
 * files are addressed from the page's folder, not from the host's root.
 */
/** Bounds of a measured iframe height (CSS pixels). */
export const IFRAME_MIN_HEIGHT = 240;
export const IFRAME_MAX_HEIGHT = 6000;

/**
 * The iframe height for a view measured `measured` px tall in the app: embed.html adds a little
 * frame around the section, and a narrower blog column wraps text onto more lines (10% more).
 */
export function iframeHeight(measured: number): number {
  return Math.min(IFRAME_MAX_HEIGHT, Math.max(IFRAME_MIN_HEIGHT, Math.ceil((measured * 1.1 + 32) / 10) * 10));
}

export function embedSnippets(
  state: AppState,
  sectionId: SectionId,
  appUrl: string,
  { measuredHeight }: { measuredHeight?: number } = {},
): { script: string; iframe: string } {
  if (sectionId === 'performance') throw new RangeError('the performance section cannot be embedded');
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw new RangeError(`the app's address must be an absolute http(s) URL, got ${JSON.stringify(appUrl.slice(0, 80))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError(`the app's address must be http(s), got ${url.protocol}`);
  const base = new URL('./', url).href; // the page's folder, without query or hash
  const entries = sectionEntries(state, sectionId);

  const { tag, own, from } = ELEMENTS[sectionId](state);
  const attributes = [...own, ...entries.filter(([name]) => name !== from && !own.some(([n]) => n === name))]
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  const script = `<script type="module" src="${escapeAttribute(base + WIDGET_SCRIPT_PATH)}"></script>\n<${tag}${attributes}></${tag}>`;

  const hash = new URLSearchParams([['view', sectionId], ...entries]).toString();
  const src = `${base}${EMBED_PAGE_PATH}#${hash}`;
  const iframe =
    `<iframe src="${escapeAttribute(src)}" title="AttentionLab: ${sectionId}" width="100%" ` +
    `height="${measuredHeight && measuredHeight > 0 ? iframeHeight(measuredHeight) : IFRAME_HEIGHT[sectionId]}" frameborder="0" loading="lazy"></iframe>`;
  return { script, iframe };
}
