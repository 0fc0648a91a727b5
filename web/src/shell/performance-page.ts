// The Performance page (performance.html): the committed benchmark figures, for engineers, on a
// page of their own (linked from the article's footer). The language comes from the address
// (#lang=zh, as in the article) or the browser; the switch rewrites the address and re-renders.
import '../design.css';
import '../charts/charts.css';
import darkCss from '../design-dark.css?inline';
import { adoptCss } from '../adopt-css';
import './style.css';
import './performance.css';
import { resolveLang, SHELL_STRINGS, translator, type Lang } from '../i18n';
import { watchLanguageRuns } from './lang-runs';
import { PAGE_STRINGS } from './page-strings';
import type { SectionHandle } from '../section';
import { PERFORMANCE_TITLE, performanceSection } from '../sections/performance';
import { AppState } from '../state';

// dark mode on this page (the sections adopt design.css before it: design-dark.css's tokens win)
adoptCss(document, darkCss);

let handle: SectionHandle | null = null;

function render(lang: Lang): void {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  const title = PERFORMANCE_TITLE[lang];
  document.title = `AttentionLab · ${title}`;
  const heading = document.getElementById('site-title');
  if (heading) heading.textContent = title;
  const back = document.getElementById('back-link');
  if (back instanceof HTMLAnchorElement) {
    back.textContent = lang === 'zh' ? '← 返回 AttentionLab 正文' : '← Back to the AttentionLab article';
    back.href = `./index.html${lang === 'zh' ? '#lang=zh' : ''}`;
  }
  const group = document.getElementById('lang-switch');
  group?.setAttribute('aria-label', translator(lang, PAGE_STRINGS, SHELL_STRINGS)('shell.lang'));
  for (const b of document.querySelectorAll<HTMLButtonElement>('#lang-switch button[data-lang]')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  }
  const body = document.getElementById('performance-body');
  if (!body) return;
  handle?.destroy();
  body.replaceChildren();
  handle = performanceSection.mount(body, {
    state: AppState.fromHash(location.hash).state,
    lab: null as never, // the figures are committed numbers: no worker, no wasm
    lang,
    t: translator(lang, performanceSection.strings, PAGE_STRINGS, SHELL_STRINGS),
    embedded: false,
  });
  document.body.dataset.ready = 'true';
}

for (const b of document.querySelectorAll<HTMLButtonElement>('#lang-switch button[data-lang]')) {
  b.addEventListener('click', () => {
    const lang: Lang = b.dataset.lang === 'zh' ? 'zh' : 'en';
    history.replaceState(history.state, '', `#lang=${lang}`);
    render(lang);
  });
}
render(resolveLang(AppState.fromHash(location.hash).state.get('lang')));
watchLanguageRuns(document.body); // the other language's words read in their own voice
