// "Standalone HTML": one .html file that shows the view with nothing else, opens by double-click
// (file://) and works offline; nothing is fetched when it opens. A figure's file is its
// <attention-heatmap data=…> with the kit's file:// script (attention-lab-file.js: the widgets that
// need no worker) inlined. A section's file is its widget element (the Embed dialog's) with the
// standalone script of the one wasm build it uses inlined: every widget, its worker and that wasm
// as a data: URL (vite.config.ts, kit-standalone), started as a blob: worker, which Chromium allows
// on a file:// page. The scripts are read from the builds beside this code.
import { downloadHtml } from '../export';
import type { AppState } from '../state';
import type { SectionId } from '../state-table';
import { isEmbeddable, type EmbeddableSection } from '../widgets/sections';
import { escapeAttribute, embedSnippets, kitPlace, DEFAULT_KIT_PLACE } from './embed-snippets';

/** where the kit's file:// script and the standalone scripts are, relative to this module (vite.config.ts) */
declare const __KIT_FILE_SCRIPT__: string;
declare const __STANDALONE_SCRIPTS__: string;

/** The wasm build each section computes with (the one its standalone file carries). */
const WASM_BUILD_OF: Record<EmbeddableSection, 'attention' | 'seq2seq' | 'transformer' | 'gpt'> = {
  dot: 'attention',
  self: 'attention',
  multihead: 'attention',
  idea: 'attention',
  translate: 'seq2seq',
  why: 'seq2seq',
  transformer: 'transformer',
  gpt: 'gpt', // with the poems inlined too (vite.config.ts)
};

/** A script's text made safe inside an inline <script> element (no early `</script>`, no `<!--`). */
export function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The standalone page around `body` (markup made by the caller, attributes escaped). */
export function standalonePage({ title, lang, body, script }: { title: string; lang: string; body: string; script: string }): string {
  return `<!doctype html>
<html lang="${escapeAttribute(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="AttentionLab">
<title>${escapeText(title)}</title>
</head>
<body>
${body}
<script>${inlineScript(script)}</script>
</body>
</html>
`;
}

async function builtScript(path: string): Promise<string> {
  const url = new URL(path, import.meta.url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Standalone HTML: ${url.pathname.split('/').pop()} is not beside this page (HTTP ${res.status}); build it with npm run build:web`);
  return res.text();
}

const kitFileScript = () => builtScript(__KIT_FILE_SCRIPT__);

/** A section's page: its widget element as the Embed dialog writes it, the standalone script inlined. */
export async function standaloneSectionHtml(state: AppState, sectionId: SectionId, title: string): Promise<string> {
  if (!isEmbeddable(sectionId)) throw new RangeError(`the ${sectionId} section cannot be embedded`);
  const element = embedSnippets(state, sectionId, kitPlace(DEFAULT_KIT_PLACE)).script.split('\n')[1];
  const script = await builtScript(`${__STANDALONE_SCRIPTS__}attention-lab-${WASM_BUILD_OF[sectionId]}.js`);
  return standalonePage({ title: `AttentionLab · ${title}`, lang: state.get('lang') === 'zh' ? 'zh' : 'en', body: element, script });
}

export async function downloadStandaloneSection(state: AppState, sectionId: SectionId, title: string): Promise<void> {
  downloadHtml(`attention-lab-${sectionId}`, await standaloneSectionHtml(state, sectionId, title));
}

/** One figure's page (in the page's language by default): its numbers in <attention-heatmap data=…>, drawn by the inlined kit script. */
export async function standaloneMatrixHtml(data: { title: string }, lang = document.documentElement.lang || 'en'): Promise<string> {
  const element = `<attention-heatmap data="${escapeAttribute(JSON.stringify(data))}"></attention-heatmap>`;
  return standalonePage({ title: data.title || 'AttentionLab', lang, body: element, script: await kitFileScript() });
}

export async function downloadStandaloneMatrix(name: string, data: { title: string }): Promise<void> {
  downloadHtml(name, await standaloneMatrixHtml(data));
}
