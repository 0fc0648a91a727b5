// The step player shared by the decoding views of §3.3 (translate-decode.ts) and §4
// (transformer-decode.ts): Play (one output step every `ms` until the end), Step and Restart, the
// progress line, and the view's data-step / data-steps / data-done (tests wait for them). The
// view draws the step itself (`render`).
import { fill } from '../i18n';
import { button, el } from './dom';

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
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(o: StepPlayerOptions) {
    this.#o = o;
    const { t, keys, testPrefix } = o;
    this.controls = el('div', `al-controls ${o.className}`);
    this.#playButton = button(t(keys.play), `${testPrefix}-play`, () => this.play());
    const step = button(t(keys.step), `${testPrefix}-step`, () => {
      this.stop();
      this.go(this.pos + 1);
    });
    const restart = button(t(keys.restart), `${testPrefix}-restart`, () => {
      this.stop();
      this.go(0);
    });
    this.controls.append(this.#playButton, step, restart);
  }

  play(): void {
    this.stop();
    if (!this.#o.loaded()) return;
    if (this.pos >= this.#o.total()) this.go(0);
    this.#playButton.disabled = true;
    this.#timer = setInterval(() => {
      if (this.pos >= this.#o.total()) this.stop();
      else this.go(this.pos + 1);
    }, this.#o.ms);
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#playButton.disabled = false;
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
    o.progress.textContent = loaded ? fill(o.t(o.keys.progress), { step: this.pos, total }) : o.t(o.keys.waiting);
    o.render(this.pos);
  }
}
