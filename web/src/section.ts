// The contract between the page shell (main.ts), the embeddable widgets (web/src/widgets/) and the
// article's sections (web/src/sections/*.ts). A section is mounted into a host element (a <section>
// of the article, or a widget's shadow root) with a context; it reads and writes its settings only
// through ctx.state (so every state is a permalink) and computes only through ctx.lab (the one worker).
import type { LabClient } from './worker/protocol';
import type { AppState } from './state';
import type { SectionId } from './state-table';
import type { Lang, Strings } from './i18n';

export type { SectionId };

export interface SectionContext {
  /** the shared state; a section reads its settings here and writes them with state.set/update */
  readonly state: AppState;
  /** the worker client: every wasm computation and every model lives in the worker */
  readonly lab: LabClient;
  readonly lang: Lang;
  /** text in the current language: the section's own strings first, then the shell's */
  t(key: string): string;
  /** true inside a widget or embed.html: no page-level chrome (headings are the host's) */
  readonly embedded: boolean;
}

export interface SectionHandle {
  /**
   * Visible on screen (or not). Sections that train or animate start only when active and pause
   * when inactive; widgets call this from an IntersectionObserver, the article too.
   */
  setActive(active: boolean): void;
  /** The worker was restarted after a crash: recreate worker-side models, redraw. */
  onWorkerRestart(): void;
  /**
   * Only the page's language changes (destroy follows, then a new mount in the other language):
   * a section with trained models pauses them and parks them (sections/parked.ts) for the new
   * mount to adopt, so destroy() leaves them alive.
   */
  park?(): void;
  /** Stops timers, deletes worker-side models (those not parked), removes listeners. */
  destroy(): void;
}

export interface SectionModule {
  readonly id: SectionId;
  /** the section's own strings, one key set for both languages */
  readonly strings: Strings;
  mount(host: HTMLElement, ctx: SectionContext): SectionHandle;
}
