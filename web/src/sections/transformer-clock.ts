// §4's training runs: Train runs the model to the step target (transformer_steps, or transformer_steps more once it
// is reached) as one stream in the worker; the time it will take is shown before a run (at the
// speed measured so far) and while it runs. A run estimated at well over a minute
// (speed-meter.ts) pauses and asks: all of it, about a minute of it, or pause. The speed is measured by the wall clock (what the reader
// waits for, not the worker's compute time alone) in windows (speed-meter.ts), and a run is judged
// long only at the fastest of its first windows, so one busy second does not ask about a run that
// would finish within a minute. The estimate is in one place: the question while it asks, the line
// under the progress bar otherwise. Off screen a run trains on without drawing (a reader who reads
// on comes back to a trained model).
import { fill } from '../i18n';
import type { SectionContext } from '../section';
import { button, el, primaryButton, setText } from './dom';
import { Redraw } from '../redraw';
import { trainingRedrawMs } from './training-redraw';
import { ABOUT_A_MINUTE_SECONDS, isLongRun, SpeedMeter } from './speed-meter';
import type { TransformerTrainer } from './transformer-train';

type T = (key: string) => string;

/** "45 s", "2 min 5 s" in the reader's language. */
export function formatSeconds(t: T, seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  return s < 60 ? fill(t('transformer.duration.s'), { s }) : fill(t('transformer.duration.m'), { m: Math.floor(s / 60), s: s % 60 });
}

/** What the time per step depends on: the task and the model's sizes (not its rate or seed). */
function architecture(trainer: TransformerTrainer): string {
  const s = trainer.settings;
  return [s.task, s.layers, s.heads, s.dModel, s.dFF, s.normFirst].join(',');
}

interface ClockHooks {
  trainer(): TransformerTrainer;
  onProgress(): void;
  /** the run ended (finished, paused, or failed with `err`) */
  onEnd(err: unknown): void;
  onRender(): void;
}

/** A run's target step and whether the reader agreed to its taking long: what a change of the page's language carries over. */
export interface RunPlan {
  step: number;
  confirmed: boolean;
}

export class TrainingClock {
  readonly eta = el('span', 'transformer-progress-text transformer-eta');
  readonly estimate = el('p', 'transformer-note transformer-estimate');
  readonly confirm = el('div', 'transformer-confirm');
  readonly #ctx: SectionContext;
  readonly #hooks: ClockHooks;
  /** the target step of the current (or last) run, for the trainer it was set for */
  #target: { trainer: TransformerTrainer; step: number } | null = null;
  #stream: { done: Promise<void>; stop(): void } | null = null;
  /** the reader wants it to train (pressed Train, not Pause) */
  #wanted = false;
  #active = true;
  #confirmed = false;
  /** the current run's speed */
  readonly #meter = new SpeedMeter();
  /** the redraws while training (redraw.ts: 30 a second, 15 below 4 cores) */
  readonly #redraws: Redraw;
  /** ms per step measured by the wall clock for each architecture (task and sizes): a new model of the same one is estimated at once */
  readonly #speeds = new Map<string, number>();

  constructor(ctx: SectionContext, hooks: ClockHooks) {
    this.#ctx = ctx;
    this.#hooks = hooks;
    this.#redraws = new Redraw(() => this.#hooks.onRender(), { everyMs: trainingRedrawMs() });
    this.eta.dataset.testid = 'transformer-eta';
    this.estimate.dataset.testid = 'transformer-estimate';
    this.confirm.hidden = true;
    this.confirm.setAttribute('role', 'alertdialog');
    this.confirm.dataset.testid = 'transformer-confirm';
  }

  get running(): boolean {
    return this.#stream !== null;
  }

  /** The step the current run trains to, or the one Train would train to. */
  target(): number {
    const trainer = this.#hooks.trainer();
    const steps = this.#ctx.state.get('transformer_steps');
    if (this.#target?.trainer === trainer) return this.#target.step;
    return Math.max(steps, trainer.step);
  }

  /** The run planned for `trainer` (its target, the reader's answer to a long run); null if none. */
  plan(trainer: TransformerTrainer): RunPlan | null {
    return this.#target?.trainer === trainer ? { step: this.#target.step, confirmed: this.#confirmed } : null;
  }

  /** Takes over the plan the section made in the other language: Train resumes it, asking again only if it did not agree. */
  adopt(trainer: TransformerTrainer, plan: RunPlan): void {
    this.#target = { trainer, step: plan.step };
    this.#confirmed = plan.confirmed;
  }

  start(): void {
    const trainer = this.#hooks.trainer();
    if (this.#target?.trainer !== trainer || trainer.step >= this.#target.step) {
      const steps = this.#ctx.state.get('transformer_steps');
      this.#target = { trainer, step: trainer.step >= steps ? trainer.step + steps : steps };
      this.#confirmed = false;
    }
    this.confirm.hidden = true;
    this.#wanted = true;
    this.#run();
  }

  /** Pause: the stream ends after its current slice. */
  stop(): void {
    this.#wanted = false;
    this.confirm.hidden = true;
    this.#stream?.stop();
    this.#hooks.onRender();
  }

  /** In view or not: off screen a run goes on without redrawing; back in view it is drawn at once. */
  setActive(active: boolean): void {
    const back = active && !this.#active;
    this.#active = active;
    if (back && this.#stream) this.#hooks.onRender();
  }

  #run(): void {
    if (this.#stream || !this.#wanted) return;
    const trainer = this.#hooks.trainer();
    const target = this.#target?.step ?? 0;
    if (trainer.step >= target) {
      this.#wanted = false;
      return;
    }
    this.#meter.start(trainer.step);
    const stream = trainer.play(target - trainer.step, () => this.#progress(trainer));
    this.#stream = stream;
    this.#hooks.onRender();
    stream.done.then(
      () => this.#ended(stream, trainer, null),
      (err: unknown) => this.#ended(stream, trainer, err),
    );
  }

  #ended(stream: { stop(): void }, trainer: TransformerTrainer, err: unknown): void {
    if (this.#stream !== stream) return;
    this.#stream = null;
    // the question already quoted this run's speed: the estimate after it quotes the same one
    const measured = this.confirm.hidden ? this.#meter.best : null;
    if (measured !== null) this.#speeds.set(architecture(trainer), measured);
    if (err || trainer.step >= (this.#target?.step ?? 0)) this.#wanted = false;
    if (trainer !== this.#hooks.trainer()) return;
    this.#hooks.onEnd(err);
    // a confirm chose to go on while the stream was ending
    if (this.#wanted && !err) this.#run();
  }

  #progress(trainer: TransformerTrainer): void {
    if (trainer !== this.#hooks.trainer()) return;
    this.#meter.record(trainer.step);
    const perStep = this.#meter.settled;
    const left = (this.#target?.step ?? 0) - trainer.step;
    if (perStep !== null && !this.#confirmed && isLongRun(perStep, left)) this.#ask(left, perStep);
    if (!this.#active) return;
    this.#hooks.onProgress();
    this.#redraws.request();
  }

  #ask(left: number, perStep: number): void {
    const t = this.#ctx.t;
    this.#speeds.set(architecture(this.#hooks.trainer()), perStep);
    this.#wanted = false;
    this.#stream?.stop();
    const trainer = this.#hooks.trainer();
    const fitting = Math.max(10, Math.floor((ABOUT_A_MINUTE_SECONDS * 1000) / perStep / 10) * 10);
    const text = el('p', undefined, fill(t('transformer.confirm.text'), { ms: perStep.toFixed(1), steps: left, time: formatSeconds(t, (left * perStep) / 1000) }));
    const all = primaryButton(t('transformer.confirm.run'), 'transformer-confirm-run', () => {
      this.#confirmed = true;
      this.confirm.hidden = true;
      this.#wanted = true;
      this.#run();
    });
    const fewer = button(fill(t('transformer.confirm.fewer'), { steps: trainer.step + fitting }), 'transformer-confirm-fewer', () => {
      this.#target = { trainer, step: trainer.step + fitting };
      this.#confirmed = true;
      this.confirm.hidden = true;
      this.#wanted = true;
      this.#run();
    });
    const cancel = button(t('transformer.confirm.cancel'), 'transformer-confirm-cancel', () => {
      this.confirm.hidden = true;
      this.#hooks.onRender(); // the estimate line takes over from the question
    });
    const actions = el('div', 'transformer-confirm-actions');
    actions.append(all, ...(fitting < left ? [fewer] : []), cancel);
    this.confirm.replaceChildren(text, actions);
    const root = this.confirm.getRootNode() as Document | ShadowRoot;
    const hadFocus = root.activeElement instanceof Node && this.confirm.parentElement?.contains(root.activeElement);
    this.confirm.hidden = false;
    // the run paused to ask: a reader at the Pause button is taken to the question
    if (hadFocus) all.focus({ preventScroll: true });
  }

  /** The time left while running, and the estimate of what Train would do before. */
  render(): void {
    const t = this.#ctx.t;
    const trainer = this.#hooks.trainer();
    const target = this.target();
    const running = this.#stream !== null;
    const measured = running ? this.#meter.latest : null;
    setText(this.eta, running && measured !== null && target > trainer.step ? fill(t('transformer.eta'), { time: formatSeconds(t, ((target - trainer.step) * measured) / 1000) }) : '');
    // while the question is asked, it is the estimate
    if (running || !this.confirm.hidden) {
      setText(this.estimate, '');
      return;
    }
    const steps = this.#ctx.state.get('transformer_steps');
    const next = trainer.step >= target ? steps : target - trainer.step;
    const perStep = this.#speeds.get(architecture(trainer)) ?? trainer.msPerStep ?? null;
    this.estimate.textContent =
      perStep !== null ? fill(t('transformer.estimate'), { time: formatSeconds(t, (next * perStep) / 1000), steps: next, ms: perStep.toFixed(1) }) : t('transformer.estimate.first');
  }

  destroy(): void {
    this.#wanted = false;
    this.#stream?.stop();
    this.#redraws.stop();
  }
}
