// What the decoding views of §3.3 (translate-decode.ts) and §4 (transformer-decode.ts) share: the
// step player (a new translation shows whole and nothing moves by itself; Play: one output step
// every `ms` until the end; Step (at the end, back to the first step, as Play starts over) and
// Restart; the progress line;
// the view's data-step / data-steps / data-done, which tests wait for), and the source tokens as
// chips shaded by the step's attention. The view draws the step itself (`render`).
import type { SourceToken } from '#types/seq2seq';
import { fill } from '../i18n';
import { button, el } from './dom';
import { RovingFocus, setDisabled } from './keyboard';

/**
 * From this weight on a chip or cell is drawn "strong": the light text on a deep tint (the CSS
 * deepens it to at least 0.82 of the heat colour). Below it, the ink on the weight's own tint. On
 * the light panel the ink reads (≥ 4.5:1) only up to a tint of about 0.74 (4.48:1 at 0.75, 5.1:1 at
 * 0.70), the light text from 0.82 on; the switch comes early enough for the ink never to fall short.
 */
export const STRONG_WEIGHT = 0.7;

/**
 * The source tokens as chips (class `${prefix}-token`, list items of the view's source list), each
 * shaded by its weight and labelled with it; `weights` null: none shaded. An unknown token is marked (data-unknown, class, `unknownTitle`).
 */
export function sourceChips(source: readonly SourceToken[], weights: ArrayLike<number> | null, prefix: string, unknownTitle: string): HTMLElement[] {
  return source.map((s, i) => {
    const chip = el('span', s.unknown ? `${prefix}-token unknown` : `${prefix}-token`);
    chip.setAttribute('role', 'listitem'); // the source is a list (role=list), one Tab stop, arrows inside
    chip.append(el('span', `${prefix}-token-text`, s.text === ' ' ? '␣' : s.text));
    if (s.unknown) {
      chip.title = unknownTitle;
      chip.dataset.unknown = '1';
    }
    const w = weights ? (weights[i] ?? 0) : 0;
    chip.style.setProperty('--w', w.toFixed(3));
    if (w >= STRONG_WEIGHT) chip.classList.add('strong');
    if (weights) chip.append(el('span', `${prefix}-token-weight`, w.toFixed(2)));
    return chip;
  });
}

/**
 * The source list of a decoding view: one Tab stop, arrow keys from token to token (each reads its
 * text and weight). Draw its chips through `update`.
 */
export function sourceList(source: HTMLElement, label: string): RovingFocus {
  source.setAttribute('role', 'list');
  source.setAttribute('aria-label', label);
  return new RovingFocus(source, () => [Array.from(source.children) as HTMLElement[]]);
}

/** The index of the largest value (the first of equals): a step's strongest source word. */
export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

export interface StepPlayerOptions {
  /** the view: its data-step, data-steps and data-done follow the player */
  view: HTMLElement;
  /** the line that says "step k of n" (or that a translation is awaited) */
  progress: HTMLElement;
  t: (key: string) => string;
  /** string keys of the three buttons and the two progress texts ('{step}', '{total}') */
  keys: { play: string; step: string; restart: string; progress: string; waiting: string };
  /** test ids: `${testPrefix}-play`, `-step`, `-restart` */
  testPrefix: string;
  /** the controls row's class */
  className: string;
  ms: number;
  /** the steps of the translation shown (0: none) */
  total(): number;
  /** a translation is shown */
  loaded(): boolean;
  /** draws step `pos` (0: before the first) */
  render(pos: number): void;
}

export class StepPlayer {
  /** Play, Step, Restart (a view may append its own controls) */
  readonly controls: HTMLElement;
  /** the step shown, 0 … total */
  pos = 0;
  readonly #o: StepPlayerOptions;
  readonly #playButton: HTMLButtonElement;
  readonly #stepButton: HTMLButtonElement;
  #timer: ReturnType<typeof setInterval> | null = null;
  /** what the progress line says while nothing is loaded (rewind) */
  #waiting: string;

  constructor(o: StepPlayerOptions) {
    this.#o = o;
    this.#waiting = o.keys.waiting;
    const { t, keys, testPrefix } = o;
    this.controls = el('div', `al-controls ${o.className}`);
    this.#playButton = button(t(keys.play), `${testPrefix}-play`, () => this.play());
    // at the end (where a new translation stands) Step starts over at the first token, so "press
    // Next token" works on a translation just shown
    this.#stepButton = button(t(keys.step), `${testPrefix}-step`, () => {
      this.stop();
      this.go(o.loaded() && this.pos >= o.total() ? 1 : this.pos + 1);
    });
    const restart = button(t(keys.restart), `${testPrefix}-restart`, () => this.rewind());
    this.controls.append(this.#playButton, this.#stepButton, restart);
  }

  play(): void {
    this.stop();
    if (!this.#o.loaded()) return;
    if (this.pos >= this.#o.total()) this.go(0);
    // Play is disabled while it plays: the focus goes on to Step (which stops it, one step on)
    setDisabled(this.#playButton, true, this.#stepButton);
    this.#timer = setInterval(() => {
      if (this.pos >= this.#o.total()) this.stop();
      else this.go(this.pos + 1);
    }, this.#o.ms);
  }

  /** the decoding is playing by itself (Play) */
  get running(): boolean {
    return this.#timer !== null;
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#playButton.disabled = false;
  }

  /**
   * A new translation: shown whole, every step drawn. It does not play by itself (motion the
   * reader did not ask for, and a live output that would speak word by word); Play or Step replays it.
   */
  show(): void {
    this.stop();
    this.go(this.#o.total());
  }

  /**
   * Stopped at the first step (the translation cleared, or Restart). `waiting`: the string key of
   * what the progress line says while there is no translation, if not the options' (why there is
   * none: no sentence, say, rather than no model yet).
   */
  rewind(waiting?: string): void {
    this.stop();
    this.#waiting = waiting ?? this.#o.keys.waiting;
    this.go(0);
  }

  /** The progress line names step `step` (one the reader picked in the view's map); the player stays where it is. */
  label(step: number): void {
    const o = this.#o;
    if (o.loaded()) o.progress.textContent = fill(o.t(o.keys.progress), { step, total: o.total() });
  }

  /** Shows step `pos` (clamped to 0 … total). */
  go(pos: number): void {
    const o = this.#o;
    const total = o.total();
    const loaded = o.loaded();
    this.pos = Math.max(0, Math.min(pos, total));
    o.view.dataset.step = String(this.pos);
    o.view.dataset.steps = String(total);
    o.view.dataset.done = loaded && this.pos === total ? '1' : '0';
    o.progress.textContent = loaded ? fill(o.t(o.keys.progress), { step: this.pos, total }) : o.t(this.#waiting);
    o.render(this.pos);
  }
}
