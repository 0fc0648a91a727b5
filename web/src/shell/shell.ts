// The article's shell: header, language switch, table of contents, notices, and the sections of
// the note in order, each mounted with a SectionContext (section.ts). The state lives in the URL
// hash (state.ts): read at load, written back on every change, re-read on back/forward. All wasm
// work happens in the one lab worker (worker/client.ts), which the entry (main.ts) has started
// before this code arrived; if it dies, a banner offers a restart.
import darkCss from '../design-dark.css?inline';
import { adoptCss } from '../adopt-css';
import { EmbedDialog, embedButton } from '../embed/embed-dialog';
import { setFigureEmbed } from '../embed/figure-embed';
import { fill, SHELL_STRINGS, importWithStrings, resolveLang, translator, useLanguage, type Lang } from '../i18n';
import { PAGE_STRINGS } from './page-strings';
import { glossaryList, keepTermsMarked } from './glossary';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import { ARTICLE_SECTIONS, SECTION_TITLES } from '../sections/titles';
import { AppState, type ParseResult, type PropName } from '../state';
import { splitAddress } from './address';
import type { WorkerLabClient } from '../worker/client';
import { SECTION_LOADERS, type ArticleSection, type EmbeddableSection } from '../widgets/sections';
import { el, scrollBehavior } from '../sections/dom';
import { showBootError } from './boot-error';
import { watchLanguageRuns } from './lang-runs';
import { discardParked } from '../sections/parked';

/** The article's sections: the widgets', with §5 fetching the poems beside the page (the widget's beside the kit). */
const ARTICLE_LOADERS: Record<ArticleSection, () => Promise<SectionModule>> = {
  ...SECTION_LOADERS,
  gpt: () => import('../sections/gpt').then((m) => m.gptSection),
};

// dark mode on this page (the sections adopt design.css before it: design-dark.css's tokens win)
adoptCss(document, darkCss);

const t0 = translator('en', PAGE_STRINGS, SHELL_STRINGS);

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`page is missing #${id}`);
  return el;
}

interface Mounted {
  id: ArticleSection;
  element: HTMLElement;
  /** null until the section's code has arrived */
  module: SectionModule | null;
  handle: SectionHandle | null;
}

/** How many unknown keys a notice lists (a hash may hold thousands). */
const MAX_LISTED = 8;
/** Hash writes are coalesced: a dragged slider must not flood history.replaceState. */
const HASH_WRITE_DELAY_MS = 120;

class Shell {
  readonly #state: AppState;
  readonly #lab: WorkerLabClient;
  readonly #article = byId('article', HTMLElement);
  readonly #toc = byId('toc-list', HTMLOListElement);
  readonly #notices = byId('notices', HTMLElement);
  #mounted: Mounted[] = [];
  #lang: Lang = 'en';
  #t = t0;
  #observer: IntersectionObserver | null = null;
  /** marks the contents entry of the section crossing the reading line (40% down the viewport) */
  #tocObserver: IntersectionObserver | null = null;
  #banner: HTMLElement | null = null;
  #hashTimer: ReturnType<typeof setTimeout> | null = null;
  #layoutKey = '';
  #embedDialog: EmbedDialog | null = null;
  /** the section whose Embed dialog is open: the contents mark it, whatever the reading line says */
  #dialogSection: ArticleSection | null = null;
  #stopGlossary: (() => void) | null = null;
  /** counts re-renders: a staged mount of an older render stops */
  #mountRun = 0;
  /** the section or heading the address named (splitAddress), kept in the address */
  #place: string | null = null;
  /** stops keeping the place the address named (splitAddress) at the top of the window */
  #releasePlace: (() => void) | null = null;

  constructor(parsed: ParseResult, lab: WorkerLabClient, place: string | null = null) {
    this.#lab = lab;
    this.#state = parsed.state;
    this.#state.subscribe((changed) => this.#onStateChange(changed));
    window.addEventListener('hashchange', () => this.#onHashChange());
    window.addEventListener('pagehide', () => this.#writeHash()); // a pending write must not be lost
    // a figure's "Embed…" (its Export menu) opens the same dialog, for that figure's numbers
    setFigureEmbed((json, title, opener) => {
      this.#openingDialog(this.#mounted.find((m) => opener && m.element.contains(opener))?.id ?? null).openMatrix(json, title, opener);
    });
    for (const button of document.querySelectorAll<HTMLButtonElement>('#lang-switch button[data-lang]')) {
      button.addEventListener('click', () => {
        const lang = button.dataset.lang === 'zh' ? 'zh' : 'en';
        this.#state.set('lang', lang);
      });
    }
    // to the content past the header and contents (a link for its role; the hash is the app state)
    byId('skip-link', HTMLAnchorElement).addEventListener('click', (e) => {
      e.preventDefault();
      this.#article.focus({ preventScroll: true });
      this.#article.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
    });
    this.#lab.onCrash((error) => this.#showCrash(error));
    // it may have died while this code loaded
    if (this.#lab.crashed) this.#showCrash(new Error('the worker stopped while the page was loading'));
    this.#lab.onRestart(() => {
      this.#banner?.remove();
      this.#banner = null;
      for (const m of this.#mounted) this.#guard(m, () => m.handle?.onWorkerRestart());
    });
    this.#render();
    this.#showParseNotice(parsed);
    if (place) this.#goToPlace(place);
    this.#writeHash();
    watchLanguageRuns(document.body); // Chinese words on the English page read as Chinese, and back
  }

  /** Re-renders the chrome and re-mounts the sections when language, view or hide switches change. */
  #render(): void {
    // only the language changed: the sections' trained models carry over (sections/parked.ts)
    const previous = this.#layoutKey;
    const languageOnly = previous !== '' && previous.split('|').slice(1).join('|') === this.#layoutOf(this.#state).split('|').slice(1).join('|');
    this.#lang = resolveLang(this.#state.get('lang'));
    this.#t = translator(this.#lang, PAGE_STRINGS, SHELL_STRINGS);
    this.#layoutKey = this.#layoutOf(this.#state);
    const t = this.#t;
    document.documentElement.lang = this.#lang === 'zh' ? 'zh-CN' : 'en';
    document.title = `${t('shell.title')} · ${this.#lang === 'zh' ? '注意力机制，在浏览器中实时运行' : 'attention, live in the browser'}`;
    byId('site-title', HTMLElement).textContent = t('shell.title');
    byId('site-lede', HTMLElement).textContent = t('shell.lede');
    byId('toc-title', HTMLElement).textContent = t('shell.toc');
    byId('skip-link', HTMLAnchorElement).textContent = t('shell.skip');
    const footer = byId('site-footer', HTMLElement);
    const perf = el('a', 'footer-link', t('shell.performanceLink'));
    perf.href = './performance.html';
    perf.hreflang = this.#lang === 'zh' ? 'zh' : 'en';
    const examples = el('a', 'footer-link', t('shell.examplesLink'));
    examples.href = './examples/';
    // one line for both links (at 1280 px): the article's height has no room for another
    footer.replaceChildren(el('p', undefined, t('shell.footer')), el('p', undefined, ''));
    footer.lastElementChild?.append(perf, ' · ', examples);
    const langSwitch = byId('lang-switch', HTMLElement);
    langSwitch.setAttribute('aria-label', t('shell.lang'));
    for (const b of langSwitch.querySelectorAll<HTMLButtonElement>('button[data-lang]')) {
      b.setAttribute('aria-pressed', String(b.dataset.lang === this.#lang));
    }
    this.#banner?.querySelector('.crash-text')?.replaceChildren(t('worker.crashed'));
    this.#embedDialog?.destroy(); // its strings are in the old language
    this.#embedDialog = null;
    this.#mountSections(languageOnly);
  }

  /** `keepModels`: the sections park their trained models for the new mount (sections/parked.ts). */
  #mountSections(keepModels: boolean): void {
    this.#releasePlace?.(); // its heading is about to go
    this.#unmountSections(keepModels);
    const view = this.#state.get('view');
    document.body.dataset.view = view;
    const visible = ARTICLE_SECTIONS.filter((id) => view === 'all' || id === view);
    this.#article.replaceChildren();
    this.#toc.replaceChildren();
    if (view !== 'all') this.#article.append(this.#showAllButton());
    this.#observer = new IntersectionObserver((entries) => this.#onVisibility(entries), { rootMargin: '100px 0px' });
    this.#tocObserver = new IntersectionObserver(() => this.#onReading(), { rootMargin: '-40% 0px -59% 0px' });
    for (const id of visible) {
      const title = SECTION_TITLES[id][this.#lang];
      const element = el('section', 'article-section');
      element.id = `section-${id}`;
      element.dataset.section = id;
      const heading = el('h2', 'section-title', title);
      heading.id = `section-${id}-title`;
      heading.tabIndex = -1;
      element.setAttribute('aria-labelledby', heading.id);
      const body = el('div', 'section-body');
      element.append(heading, this.#embedButton(id, title), body);
      this.#article.append(element);
      this.#toc.append(this.#tocEntry(id, title, heading));
      this.#mounted.push({ id, element, module: null, handle: null });
    }
    this.#mounted.forEach((m, i) => m.element.querySelector('.section-title')?.after(this.#skipFigure(this.#mounted[i + 1]?.element ?? null)));
    // The page's language first: a section's strings then load with its code (i18n.ts). Every
    // section's code is requested at once, in the note's order, and each one mounts as soon as it
    // and its strings are in, one per task (mounting builds many charts, and one long task would
    // freeze the page): the section on screen does not wait for the code of the others.
    const run = ++this.#mountRun;
    void useLanguage(this.#lang, { article: true }).catch(() => {}); // sections imported from now on fill at once
    let left = this.#mounted.length;
    const settle = () => {
      if (--left === 0) {
        discardParked(); // every section has mounted: what none adopted is deleted
        document.body.dataset.ready = 'true';
        this.#glossary(run);
      }
    };
    if (left === 0) document.body.dataset.ready = 'true';
    for (const mounted of this.#mounted) {
      importWithStrings(ARTICLE_LOADERS[mounted.id], this.#lang, { article: true })
        .then(
          (module) =>
            setTimeout(() => {
              if (run !== this.#mountRun) return; // re-rendered meanwhile
              mounted.module = module;
              this.#mountOne(mounted);
              settle();
            }, 0),
          (err: unknown) => {
            if (run !== this.#mountRun) return;
            this.#showSectionError(mounted, err);
            settle();
          },
        );
    }
  }

  /**
   * The glossary closes the article, and each term's first appearance in the prose shows its
   * definition (kept there as the sections write their prose: glossary.ts).
   */
  #glossary(run: number): void {
    if (this.#state.get('view') !== 'all') return;
    const section = el('section', 'glossary-section');
    section.id = 'section-glossary';
    const heading = el('h2', 'section-title', this.#t('shell.glossary'));
    heading.id = 'section-glossary-title';
    section.setAttribute('aria-labelledby', heading.id);
    section.append(heading, glossaryList(this.#lang));
    this.#article.append(section);
    if (run === this.#mountRun) this.#stopGlossary = keepTermsMarked(this.#article, this.#lang);
  }

  #mountOne(mounted: Mounted): void {
    const { module, element } = mounted;
    const body = element.querySelector<HTMLElement>('.section-body');
    if (!body || !module) return;
    const ctx: SectionContext = {
      state: this.#state,
      lab: this.#lab,
      lang: this.#lang,
      t: translator(this.#lang, module.strings, SHELL_STRINGS),
      embedded: false,
    };
    const start = performance.now();
    this.#guard(mounted, () => {
      mounted.handle = module.mount(body, ctx);
    });
    // visible in the browser's performance panel and read by scripts/measure-page.mjs
    performance.measure(`mount ${mounted.id}`, { start, end: performance.now() });
    this.#observer?.observe(element);
    this.#tocObserver?.observe(element);
  }

  /**
   * The current section in the contents: the last one whose top has passed the reading line (40%
   * down the viewport), so the gap between two cards still counts as the one above. The observer
   * only says when to look; the rectangles say which.
   */
  #onReading(): void {
    const line = window.innerHeight * 0.4;
    let current = this.#mounted[0]?.id;
    for (const m of this.#mounted) if (m.element.getBoundingClientRect().top <= line) current = m.id;
    if (this.#dialogSection) current = this.#dialogSection;
    for (const b of this.#toc.querySelectorAll<HTMLButtonElement>('.toc-link')) {
      if (b.dataset.section === current) {
        if (b.getAttribute('aria-current') === 'true') continue;
        b.setAttribute('aria-current', 'true');
        // the compact bar scrolls sideways: bring the marked entry into it (never the page)
        const list = this.#toc;
        const offset = b.getBoundingClientRect().left - list.getBoundingClientRect().left;
        if (offset < 0 || offset + b.offsetWidth > list.clientWidth) list.scrollLeft += offset - 8;
      } else b.removeAttribute('aria-current');
    }
  }

  #unmountSections(keepModels: boolean): void {
    this.#stopGlossary?.();
    this.#stopGlossary = null;
    this.#observer?.disconnect();
    this.#observer = null;
    this.#tocObserver?.disconnect();
    this.#tocObserver = null;
    const old = this.#mounted;
    this.#mounted = [];
    if (keepModels) for (const m of old) this.#guard(m, () => m.handle?.park?.());
    for (const m of old) this.#guard(m, () => m.handle?.destroy());
    if (!keepModels) discardParked();
  }

  /** Runs a section's hook; a throwing section shows its error in place and the rest carry on. */
  #guard(m: Mounted, run: () => void): void {
    try {
      run();
    } catch (err) {
      console.warn(`section ${m.id}:`, err);
      this.#showSectionError(m, err);
    }
  }

  /** A section that failed to load or to mount says so in place (its message as text, never HTML). */
  #showSectionError(m: Mounted, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    m.element.querySelector('.section-error')?.remove();
    const p = el('p', 'section-error', `${this.#t('shell.mountFailed')} ${message}`);
    p.setAttribute('role', 'alert');
    m.element.append(p);
  }

  #tocEntry(id: ArticleSection, title: string, heading: HTMLElement): HTMLLIElement {
    // Buttons, not #fragment links: the hash is the app state.
    const item = el('li');
    const button = el('button', 'toc-link lab-link', title);
    button.type = 'button';
    button.dataset.section = id;
    button.addEventListener('click', () => {
      heading.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
      heading.focus({ preventScroll: true });
    });
    item.append(button);
    return item;
  }

  /**
   * A link past the section's figure to the next section's heading (or the footer): a keyboard
   * reader need not Tab through every control of a figure they do not want. Shown when focused.
   */
  #skipFigure(next: HTMLElement | null): HTMLAnchorElement {
    const target = next?.querySelector<HTMLElement>('.section-title') ?? byId('site-footer', HTMLElement);
    const link = el('a', 'skip-figure', next ? fill(this.#t('shell.skipFigure'), { next: target.textContent ?? '' }) : this.#t('shell.skipFigure.last'));
    link.href = `#${target.id}`;
    link.addEventListener('click', (e) => {
      e.preventDefault(); // the hash is the app state
      target.focus({ preventScroll: true });
      target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
    });
    return link;
  }

  #embedButton(id: EmbeddableSection, title: string): HTMLButtonElement {
    return embedButton(this.#t, title, (button) => this.#openingDialog(id).open(id, title, button));
  }

  /**
   * The Embed dialog, about to open for `section`'s content: the contents mark that section until it
   * closes (its button may sit below the reading line, in what the contents call the section above).
   */
  #openingDialog(section: ArticleSection | null): EmbedDialog {
    this.#embedDialog ??= new EmbedDialog(this.#state, this.#t, () => {
      this.#dialogSection = null;
      this.#onReading();
    });
    this.#dialogSection = section;
    this.#onReading();
    return this.#embedDialog;
  }

  #showAllButton(): HTMLElement {
    const button = el('button', 'show-all lab-button', this.#t('shell.showAll'));
    button.type = 'button';
    button.addEventListener('click', () => this.#state.set('view', 'all'));
    return button;
  }

  #onVisibility(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const m = this.#mounted.find((x) => x.element === entry.target);
      if (m) this.#guard(m, () => m.handle?.setActive(entry.isIntersecting));
    }
  }

  #layoutOf(state: AppState): string {
    return [resolveLang(state.get('lang')), state.get('view'), ...state.hidden()].join('|');
  }

  #onStateChange(changed: readonly PropName[]): void {
    if (changed.includes('lang') || changed.includes('view')) this.#render();
    this.#scheduleHashWrite();
  }

  #scheduleHashWrite(): void {
    if (this.#hashTimer !== null) return;
    this.#hashTimer = setTimeout(() => this.#writeHash(), HASH_WRITE_DELAY_MS);
  }

  #writeHash(): void {
    if (this.#hashTimer !== null) clearTimeout(this.#hashTimer);
    this.#hashTimer = null;
    // the place the address named stays in it, as a plain anchor does: copied, it opens there too
    const settings = this.#state.toHash().slice(1);
    const place = this.#place !== null && document.getElementById(this.#place) ? this.#place : null;
    const hash = `#${[place, settings].filter(Boolean).join('&')}`;
    if (location.hash !== hash) history.replaceState(history.state, '', hash);
  }

  /**
   * An address that names a place in the article (a section or its heading, as the page's own
   * skip links do) goes there; a name that is no place is reported as an unknown setting.
   */
  #goToPlace(id: string): void {
    const target = document.getElementById(id);
    if (!target || !(this.#article.contains(target) || target.id === 'site-footer')) {
      this.#showParseNotice({ state: this.#state, rejected: [], unknown: [id] });
      return;
    }
    this.#place = id;
    const heading = target.querySelector<HTMLElement>(':scope > .section-title') ?? target;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
    this.#holdPlace(heading);
  }

  /**
   * Keeps `heading` at the top of the window while the sections above it mount and grow, until the
   * reader scrolls, types or points, or 10 s have passed.
   */
  #holdPlace(heading: HTMLElement): void {
    this.#releasePlace?.();
    const keep = new ResizeObserver(() => heading.scrollIntoView({ block: 'start' }));
    keep.observe(this.#article);
    const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    const release = () => {
      keep.disconnect();
      clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, release, true);
      this.#releasePlace = null;
    };
    const timer = setTimeout(release, 10_000);
    for (const e of events) window.addEventListener(e, release, true);
    this.#releasePlace = release;
  }

  /** Back/forward or an edited address: apply what parses, report the rest. */
  #onHashChange(): void {
    const { place, settings } = splitAddress(location.hash);
    this.#place = null;
    const parsed = AppState.fromHash(settings);
    // a bare place keeps the reader's settings; with settings, they are the state, as on a load
    if (!place || settings !== '') {
      const relayout = this.#layoutOf(parsed.state) !== this.#layoutKey;
      this.#state.assign(parsed.state); // notifies the sections of changed values
      if (relayout && this.#layoutOf(this.#state) !== this.#layoutKey) this.#render();
      this.#showParseNotice(parsed);
    }
    if (place) this.#goToPlace(place);
    this.#writeHash();
  }

  #showParseNotice({ rejected, unknown }: ParseResult): void {
    this.#notices.querySelector('.notice-settings')?.remove();
    if (rejected.length === 0 && unknown.length === 0) return;
    const t = this.#t;
    const notice = el('div', 'notice notice-settings');
    notice.setAttribute('role', 'status');
    const list = el('ul');
    if (rejected.length) {
      const li = el('li', undefined, `${t('shell.notice.rejected')} `);
      li.append(el('span', 'notice-items', rejected.map((r) => r.reason).join('; ')));
      list.append(li);
    }
    if (unknown.length) {
      const li = el('li', undefined, `${t('shell.notice.unknown')} `);
      const shown = unknown.slice(0, MAX_LISTED).map((k) => JSON.stringify(k));
      if (unknown.length > MAX_LISTED) shown.push(`… (+${unknown.length - MAX_LISTED})`);
      li.append(el('span', 'notice-items', shown.join(', '))); // user text: textContent only
      list.append(li);
    }
    const dismiss = el('button', 'notice-dismiss lab-button', t('shell.notice.dismiss'));
    dismiss.type = 'button';
    dismiss.addEventListener('click', () => notice.remove());
    notice.append(list, dismiss);
    this.#notices.append(notice);
  }

  #showCrash(error: Error): void {
    this.#banner?.remove();
    const t = this.#t;
    const banner = el('div', 'notice crash-banner');
    banner.setAttribute('role', 'alert');
    const text = el('p');
    text.append(el('span', 'crash-text', t('worker.crashed')), ' ', el('span', 'crash-detail', `(${error.message})`));
    const restart = el('button', 'crash-restart lab-button primary', t('worker.restart'));
    restart.type = 'button';
    restart.dataset.testid = 'worker-restart';
    restart.addEventListener('click', () => this.#lab.restart());
    banner.append(text, restart);
    this.#notices.prepend(banner);
    this.#banner = banner;
  }
}

/** Starts the article on the worker the entry started (main.ts). */
export function boot(lab: WorkerLabClient): void {
  const { place, settings } = splitAddress(location.hash);
  // The performance figures moved to a page of their own; old links with view=performance go there.
  const parsed = AppState.fromHash(settings);
  if (parsed.state.get('view') === 'performance') {
    const lang = parsed.state.get('lang');
    location.replace(`./performance.html${lang === 'auto' ? '' : `#lang=${lang}`}`);
    return;
  }
  try {
    new Shell(parsed, lab, place); // sets body[data-ready=true] once every section is mounted
  } catch (err) {
    showBootError(err);
    throw err;
  }
}
