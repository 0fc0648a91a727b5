// embed.html#view=<section>&<settings>: one section of the article in an iframe, driven by the same
// state table as the app's URL hash, with no page chrome. Invalid settings are listed as text and
// ignored; the address is kept in step with the controls (replaceState) so a reload keeps them.
import { fill, SHELL_STRINGS, translator, resolveLang, useLanguage, type Lang } from '../i18n';
import { EMBED_STRINGS } from './embed-strings';
import type { SectionHandle } from '../section';
import { AppState } from '../state';
import { isEmbeddable, SECTION_LOADERS } from '../widgets/sections';
import { ARTICLE_SECTIONS, SECTION_TITLES } from '../sections/titles';
import { sharedLabClient } from '../widgets/shared-client';
import './embed.css';

const errorBox = document.getElementById('embed-error') as HTMLElement;
const root = document.getElementById('embed-root') as HTMLElement;

function showProblems(lines: string[]): void {
  errorBox.replaceChildren(
    ...lines.map((line) => {
      const p = document.createElement('p');
      p.textContent = line; // may quote hash text: text only
      return p;
    }),
  );
  errorBox.hidden = lines.length === 0;
}

async function start(): Promise<void> {
  // The host changed the iframe's hash (same document, no reload): start over from the new state,
  // an address that was refused too.
  window.addEventListener('hashchange', () => location.reload());
  const { state, rejected, unknown } = AppState.fromHash(location.hash);
  const lang: Lang = resolveLang(state.get('lang'));
  document.documentElement.lang = lang;
  const t = translator(lang, EMBED_STRINGS, SHELL_STRINGS);
  const problems = [
    ...rejected.map((r) => `${t('error.prefix')}${r.reason}`),
    ...unknown.map((name) => `${t('error.prefix')}${fill(t('embed.notSetting'), { name })}`),
  ];
  const view = state.get('view');
  if (!isEmbeddable(view)) {
    const views = ARTICLE_SECTIONS.map((id) => fill(t('embed.viewLine'), { view: id, title: SECTION_TITLES[id][lang] }));
    showProblems([...problems, `${t('error.prefix')}${t('embed.noView')}`, ...views]);
    document.body.dataset.ready = 'error';
    return;
  }
  showProblems(problems);

  const [section, lab] = await Promise.all([SECTION_LOADERS[view](), sharedLabClient()]);
  await useLanguage(lang); // the section's strings, in this language only (i18n.ts)
  document.title = `AttentionLab · ${SECTION_TITLES[view][lang]}`;
  const host = document.createElement('section');
  host.className = `embed-section embed-${view}`;
  host.setAttribute('aria-label', SECTION_TITLES[view][lang]);
  root.append(host);
  const handle: SectionHandle = section.mount(host, {
    state,
    lab,
    lang,
    t: translator(lang, section.strings, SHELL_STRINGS),
    embedded: true,
  });

  state.subscribe(() => history.replaceState(null, '', state.toHash()));
  lab.onCrash(() => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = t('worker.restart');
    button.addEventListener('click', () => lab.restart());
    showProblems([t('worker.crashed')]);
    errorBox.append(button);
  });
  lab.onRestart(() => {
    showProblems([]);
    handle.onWorkerRestart();
  });
  // Inside an iframe the implicit root is the top-level viewport: off-screen iframes pause too.
  new IntersectionObserver((entries) => handle.setActive(entries[entries.length - 1]?.isIntersecting ?? false)).observe(host);
  document.body.dataset.ready = 'true';
}

/**
 * Tells the page around the iframe how tall the content is, whenever that changes, so that the kit's
 * embed-resize.js sizes the frame to it (no inner scrollbar, no blank space). Only a height goes
 * out, to any parent: the host's origin is unknown here, and a height reveals nothing.
 */
function postHeight(): void {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'attention-lab:height', height }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
postHeight();

start().catch((err: unknown) => {
  showProblems([`${SHELL_STRINGS.en['error.prefix']}${err instanceof Error ? err.message : String(err)}`]);
  document.body.dataset.ready = 'error';
});
