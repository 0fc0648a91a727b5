// "Export → Standalone HTML": one .html file that shows the view with nothing else, opens by
// double-click (file://) and works offline. A figure's file is its <attention-heatmap data=…> and the
// kit's file:// script (attention-lab-file.js: the widgets that need no worker) inlined; nothing is
// fetched when it opens. The kit's script is read from the kit built beside this code.
import { downloadHtml } from '../export';
import { escapeAttribute } from './embed-snippets';

/** where the kit's file:// script is, relative to this module (vite.config.ts defines it per build) */
declare const __KIT_FILE_SCRIPT__: string;

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

async function kitFileScript(): Promise<string> {
  const url = new URL(__KIT_FILE_SCRIPT__, import.meta.url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Standalone HTML: the widget kit's ${url.pathname.split('/').pop()} is not beside this page (HTTP ${res.status}); build it with npm run build:web`);
  return res.text();
}

/** One figure's page: its numbers in <attention-heatmap data=…>, drawn by the inlined kit script. */
export async function standaloneMatrixHtml(data: { title: string }, lang: string): Promise<string> {
  const element = `<attention-heatmap data="${escapeAttribute(JSON.stringify(data))}"></attention-heatmap>`;
  return standalonePage({ title: data.title || 'AttentionLab', lang, body: element, script: await kitFileScript() });
}

export async function downloadStandaloneMatrix(name: string, data: { title: string }): Promise<void> {
  downloadHtml(name, await standaloneMatrixHtml(data, document.documentElement.lang || 'en'));
}
