// What a screen reader hears of a section that trains: one polite live region, visually hidden, that
// speaks when the run changes phase (training starts, pauses, ends, the model is reset) and, while
// it trains, its progress at most once every few seconds. The visible progress line changes every
// frame; a live region on it would flood the reader's queue, so it stays silent and this speaks.
//   const announcer = new Announcer(lang);            // root.append(announcer.element)
//   announcer.track(playing ? 'training' : 'paused', progressText);   // on every redraw
import type { Lang } from '../i18n';
import { el } from './dom';

/** While training, the progress is said at most this often. */
export const PROGRESS_EVERY_MS = 5000;

export type Phase = 'idle' | 'training' | 'paused' | 'done';

/** The word before the progress text in each phase (idle: none). */
const PHASE_WORDS: Record<Lang, Record<Phase, string>> = {
  en: { idle: '', training: 'Training', paused: 'Paused', done: 'Training done' },
  zh: { idle: '', training: '训练中', paused: '已暂停', done: '训练完成' },
};

export class Announcer {
  /** the live region: append it to the section's root */
  readonly element: HTMLElement;
  readonly #lang: Lang;
  readonly #everyMs: number;
  #phase: Phase | null = null;
  #lastAt = -Infinity;
  #pending = '';
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(lang: Lang, everyMs = PROGRESS_EVERY_MS) {
    this.#lang = lang;
    this.#everyMs = everyMs;
    this.element = el('p', 'lab-visually-hidden lab-announcer');
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
    this.element.setAttribute('aria-atomic', 'true');
    this.element.dataset.testid = 'announcer';
  }

  /**
   * The run is in `phase`, its progress reads `parts` (joined in the page's language): a new
   * phase is said at once (not the first one seen, the state at load); the same phase again only
   * while training, throttled. The phase's word goes first unless `named` is false (a text that
   * says it already).
   */
  track(phase: Phase, parts: string | readonly (string | null)[], { named = true } = {}): void {
    const zh = this.#lang === 'zh';
    const text = typeof parts === 'string' ? parts : parts.filter(Boolean).join(zh ? '，' : ', ');
    const first = this.#phase === null;
    const changed = phase !== this.#phase;
    this.#phase = phase;
    if (first) return;
    const word = named ? PHASE_WORDS[this.#lang][phase] : '';
    const line = word ? `${word}${zh ? '：' : ': '}${text}` : text;
    if (changed) this.say(line);
    else if (phase === 'training') this.#progress(line);
  }

  /** Says `text` now (a result, an event); a throttled progress line still waiting is dropped. */
  say(text: string): void {
    this.#cancel();
    this.#write(text);
  }

  destroy(): void {
    this.#cancel();
  }

  #progress(text: string): void {
    const wait = this.#lastAt + this.#everyMs - performance.now();
    if (wait <= 0) {
      this.#cancel();
      this.#write(text);
      return;
    }
    this.#pending = text;
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      if (this.#pending) this.#write(this.#pending);
      this.#pending = '';
    }, wait);
  }

  #cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending = '';
  }

  #write(text: string): void {
    this.#lastAt = performance.now();
    this.element.textContent = text;
  }
}
