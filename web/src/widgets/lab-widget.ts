// The base of every AttentionLab custom element: a shadow root (host styles neither leak in nor
// out), the element's attributes read as an app state (AppState.fromAttributes: a widget is just an
// app state), an inline error box (text only, role=alert) for rejected attributes, and lazy life:
// nothing is loaded or computed until the element first scrolls into view, and it pauses when it
// leaves the screen. Subclasses implement mount().
import { AppState, currentName, OLD_NAMES, type ParseResult } from '../state';
import { PROPS } from '../state-table';
import { resolveLang, SHELL_STRINGS, translator, type Lang } from '../i18n';
import type { SectionHandle } from '../section';
import type { LabClient } from '../worker/protocol';
import { sharedLabClient } from './shared-client';
import baseCss from './widget.css?inline';
import designCss from '../design.css?inline';
import { adoptCss } from '../adopt-css';
import { watchHostScheme, widgetIsDark, WIDGET_THEME_CSS } from './widget-theme';
import { schemeChanged } from '../scheme';
import { watchLanguageRuns } from '../shell/lang-runs';

/** Attributes any HTML element may carry: not settings, never reported as unknown. */
const GLOBAL_ATTRIBUTES = new Set(['class', 'id', 'style', 'title', 'hidden', 'slot', 'part', 'tabindex', 'dir', 'role', 'translate']);
/** Attributes of every widget that are not settings: they restyle it, never remount it. */
const LOOK_ATTRIBUTES = new Set(['theme']);
/** Start loading a little before the element is on screen, so it is ready when it arrives. */
const ROOT_MARGIN = '150px 0px';

export interface WidgetProblem {
  /** a setting or attribute name (may be host text: render with textContent only) */
  name: string;
  reason: string;
}

/** Thrown by mount() when the widget cannot be shown at all (e.g. its matrix data is invalid). */
export class WidgetError extends Error {
  readonly problems: WidgetProblem[];
  constructor(problems: WidgetProblem[]) {
    super(problems.map((p) => `${p.name}: ${p.reason}`).join('; '));
    this.problems = problems;
  }
}

export abstract class LabWidget extends HTMLElement {
  protected readonly root: ShadowRoot;
  /** where the subclass renders */
  protected readonly body: HTMLDivElement;
  readonly #alert: HTMLDivElement;
  /** the worker-crash notice with its Restart button (separate, so attribute problems stay listed) */
  readonly #crash: HTMLDivElement;
  #observer: IntersectionObserver | null = null;
  #handle: SectionHandle | null = null;
  /** true from the start of mount() until a teardown */
  #mounting = false;
  /** increases on every teardown, so a mount that finishes after one is discarded */
  #generation = 0;
  #visible = false;
  #unsubscribe: (() => void)[] = [];
  readonly #internals: ElementInternals;
  #stopScheme: (() => void) | null = null;
  /** stops marking the other language's runs in the widget's box */
  #stopRuns: (() => void) | null = null;

  /** Attributes this element reads itself (besides the state table), e.g. mechanism or data. */
  protected static readonly ownAttributes: readonly string[] = [];

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.#internals = this.attachInternals();
    // the design system's tokens first (sections adopt it too: the same sheet), then the frame and
    // the dark tokens; sections and the Heatmap class adopt their own CSS
    adoptCss(this.root, designCss, { first: true });
    adoptCss(this.root, baseCss);
    adoptCss(this.root, WIDGET_THEME_CSS);
    this.#alert = document.createElement('div');
    this.#alert.className = 'widget-error';
    this.#alert.setAttribute('role', 'alert');
    this.#alert.hidden = true;
    this.#crash = document.createElement('div');
    this.#crash.className = 'widget-error widget-crash';
    this.#crash.setAttribute('role', 'alert');
    this.#crash.hidden = true;
    this.body = document.createElement('div');
    this.body.className = 'widget-body';
    const loading = document.createElement('p');
    loading.className = 'widget-loading';
    this.body.append(loading);
    this.root.append(this.#alert, this.#crash, this.body);
  }

  /** Settings, hide switches and the element's own attributes: a change mounts the widget afresh. */
  static get observedAttributes(): string[] {
    return [...PROPS.map((p) => p.name), ...OLD_NAMES, 'controls_hide', ...this.ownAttributes, ...LOOK_ATTRIBUTES];
  }

  /** Light or dark (widget-theme.ts): the `theme` attribute, else the host page. */
  #applyTheme(): void {
    const dark = widgetIsDark(this, this.getAttribute('theme'));
    const states = this.#internals.states;
    states.delete(dark ? 'light' : 'dark');
    states.add(dark ? 'dark' : 'light');
    const was = this.dataset.scheme;
    this.dataset.scheme = dark ? 'dark' : 'light';
    // its figures' canvases repaint in the new tokens (a blog's theme switch fires no media query)
    if (was !== undefined && was !== this.dataset.scheme) schemeChanged();
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (LOOK_ATTRIBUTES.has(name)) {
      if (this.isConnected) this.#applyTheme();
      return;
    }
    // Before the first mount the attributes are simply read then; afterwards a changed attribute is
    // a new app state, and mounting afresh keeps the widget consistent with its attributes.
    if (oldValue === newValue || !this.#mounting) return;
    this.#teardown();
    delete this.dataset.ready;
    if (this.#visible) this.#startMount();
  }

  connectedCallback(): void {
    this.#stopScheme ??= watchHostScheme(() => this.#applyTheme());
    if (this.#observer) return;
    const loading = this.body.querySelector('.widget-loading');
    if (loading) loading.textContent = SHELL_STRINGS[this.language(this.readState().state)].loading;
    this.#observer = new IntersectionObserver((entries) => this.#onIntersect(entries), { rootMargin: ROOT_MARGIN });
    this.#observer.observe(this);
  }

  disconnectedCallback(): void {
    // A move in the DOM disconnects and reconnects in one task: only tear down if it stays out.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#observer?.disconnect();
      this.#observer = null;
      this.#stopScheme?.();
      this.#stopScheme = null;
      this.#stopRuns?.();
      this.#stopRuns = null;
      this.#teardown(); // mounted afresh if it is inserted again
      for (const off of this.#unsubscribe) off();
      this.#unsubscribe = [];
    });
  }

  /** The element's settings: its attributes plus any presets the subclass adds (explicit wins). */
  protected readState(presets: [string, string][] = []): ParseResult {
    const own = new Set((this.constructor as typeof LabWidget).ownAttributes);
    const attributes = Array.from(this.attributes, (a) => [a.name, a.value] as [string, string]).filter(
      ([name]) => !own.has(name) && !GLOBAL_ATTRIBUTES.has(name) && !LOOK_ATTRIBUTES.has(name) && !name.startsWith('aria-') && !name.startsWith('data-'),
    );
    const given = new Set(attributes.map(([n]) => currentName(n)));
    return AppState.fromEntries([...presets.filter(([n]) => !given.has(n)), ...attributes]);
  }

  /** Language: the `lang` setting, or for `auto` the host page's language, else the browser's. */
  protected language(state: AppState): Lang {
    const setting = state.get('lang');
    if (setting !== 'auto') return setting;
    const pageLang = (this.closest('[lang]')?.getAttribute('lang') ?? '').toLowerCase();
    if (pageLang.startsWith('zh')) return 'zh';
    if (pageLang.startsWith('en')) return 'en';
    return resolveLang('auto');
  }

  protected t(lang: Lang): (key: string) => string {
    return translator(lang, SHELL_STRINGS);
  }

  /** Shows the problems as text (never markup), or hides the box when there are none. */
  protected showProblems(problems: readonly WidgetProblem[], fatal = false): void {
    const box = this.#alert;
    box.replaceChildren();
    box.hidden = problems.length === 0;
    if (!problems.length) return;
    const head = document.createElement('p');
    head.textContent = fatal
      ? `<${this.localName}> cannot be shown:`
      : `<${this.localName}>: ignored ${problems.length === 1 ? 'a setting' : `${problems.length} settings`}, using the defaults:`;
    const list = document.createElement('ul');
    for (const p of problems) {
      const item = document.createElement('li');
      const name = document.createElement('code');
      name.textContent = p.name;
      item.append(name, document.createTextNode(`: ${p.reason}`));
      list.append(item);
    }
    box.append(head, list);
    if (fatal) this.body.replaceChildren();
  }

  /** Problems of a parsed state: invalid values and attributes that are not settings. */
  protected stateProblems(parsed: ParseResult): WidgetProblem[] {
    return [
      ...parsed.rejected.map((r) => ({ name: r.name, reason: r.reason.replace(`${r.name}: `, '') })),
      ...parsed.unknown.map((name) => ({ name, reason: 'not a setting of this widget' })),
    ];
  }

  /** The shared worker client, with its crash banner and restart wiring for this widget. */
  protected async lab(lang: Lang): Promise<LabClient> {
    const lab = await sharedLabClient();
    if (this.#unsubscribe.length === 0) {
      const t = this.t(lang);
      this.#unsubscribe.push(
        lab.onCrash(() => this.#showCrash(lab, t)),
        lab.onRestart(() => {
          this.#crash.hidden = true;
          this.#handle?.onWorkerRestart();
        }),
      );
    }
    return lab;
  }

  #showCrash(lab: LabClient, t: (key: string) => string): void {
    const text = document.createElement('p');
    text.textContent = t('worker.crashed');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = t('worker.restart');
    button.addEventListener('click', () => lab.restart());
    this.#crash.replaceChildren(text, button);
    this.#crash.hidden = false;
  }

  /** Renders into this.body; resolves to the handle that setActive() drives. */
  protected abstract mount(): Promise<SectionHandle>;

  #onIntersect(entries: IntersectionObserverEntry[]): void {
    const visible = entries[entries.length - 1]?.isIntersecting ?? false;
    this.#visible = visible;
    if (this.#handle) {
      this.#handle.setActive(visible);
      this.dataset.active = String(visible);
      return;
    }
    if (visible && !this.#mounting) this.#startMount();
  }

  #startMount(): void {
    const generation = this.#generation;
    this.#mounting = true;
    // the widget's language on its own box (a blog's page may be in another), the other's runs marked
    const lang = this.language(this.readState().state);
    this.body.lang = lang === 'zh' ? 'zh-CN' : 'en';
    this.#stopRuns?.();
    this.#stopRuns = watchLanguageRuns(this.body, lang);
    this.mount()
      .then((handle) => {
        if (generation !== this.#generation || !this.isConnected) {
          handle.destroy();
          return;
        }
        this.#handle = handle;
        handle.setActive(this.#visible);
        this.dataset.active = String(this.#visible);
        this.dataset.ready = 'true';
      })
      .catch((err: unknown) => {
        if (generation !== this.#generation) return;
        const problems =
          err instanceof WidgetError ? err.problems : [{ name: this.localName, reason: err instanceof Error ? err.message : String(err) }];
        this.showProblems(problems, true);
        this.dataset.ready = 'error';
      });
  }

  #teardown(): void {
    this.#generation++;
    this.#handle?.destroy();
    this.#handle = null;
    this.#mounting = false;
  }
}
