// §1 Why attention: the note's two problems (长距离依赖, 信息压缩) shown live. A plain and an
// attention Seq2Seq train in the worker on reversing strings (why-run.ts); the chart plots their
// accuracy against string length as they learn (the shape of Bahdanau et al. 2015, Fig. 2).
// Training starts when the reader presses start and pauses while the section is off screen.
import type { CellName } from '#types/seq2seq';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import { limits, type PropName } from '../state';
import { CELLS } from '../state-table';
import css from './why.css?inline';
import { WHY_CHANCE, WhyChart, type WhyPrevious } from './why-chart';
import { WhyLettersChart } from './why-letters-chart';
import { WhyRun, type WhySettings, type WhySnapshot } from './why-run';
import { fill } from '../i18n';
import { WHY_STRINGS } from './why-strings';
import { button, checkNumber, el, errorText, field, MessageLine, narration, primaryButton, refusedFieldsMessage, select, setFieldError, mountRoot, tryThis } from './dom';
import { Announcer } from './announcer';
import { parkingSlot } from './parked';
import { CHART_CSS } from '../charts/chart-css';
import { ABOUT_A_MINUTE_SECONDS, isLongWait } from './speed-meter';

/** §1's run (both models, their snapshot) carries over a change of the page's language, and the reader's yes to a long run. */
const parked = parkingSlot<{ run: WhyRun; longRunConfirmed: boolean; previous: WhyPrevious | null }>('why');

/** 0.213 → "21%"; no value yet → "–" */
const percentText = (x: number | null | undefined): string => (typeof x === 'number' && Number.isFinite(x) ? `${Math.round(100 * x)}%` : '–');

/** "45 s", "12 min", "3 h 5 min" in the reader's language. */
export function formatDuration(t: (key: string) => string, seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 90) return fill(t('why.duration.s'), { s });
  const m = Math.round(s / 60);
  if (m < 60) return fill(t('why.duration.m'), { m });
  return fill(t('why.duration.h'), { h: Math.floor(m / 60), m: m % 60 });
}

const settingsKey = (s: Readonly<WhySettings>): string => JSON.stringify([s.cell, s.hidden, s.maxLen, s.steps, s.seed]);

const WATCHED: readonly PropName[] = ['seed', 'why_cell', 'why_hidden', 'why_max_len', 'why_steps'];

class WhyView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'why-section');
  readonly #chart: WhyChart;
  /** which letters each model gets right at the longest strings */
  readonly #letters: WhyLettersChart;
  readonly #status = el('p', 'why-status');
  readonly #error = new MessageLine('why-error');
  readonly #data = el('output', 'why-data');
  readonly #startButton: HTMLButtonElement;
  readonly #resetButton: HTMLButtonElement;
  /** says the run's start, progress (every few seconds), pause and end to a screen reader */
  readonly #announcer: Announcer;
  readonly #narration = narration('why-narration');
  readonly #confirm = el('div', 'why-confirm');
  readonly #empty = el('p', 'lab-empty-hint why-empty');
  /** the reader agreed to a long run (isLongWait; asked once per run) */
  #longRunConfirmed = false;
  /** the last finished run, drawn beside the current one once a setting has changed */
  #previous: WhyPrevious | null = null;
  readonly #unsubscribe: () => void;
  readonly #inputs: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};
  #run: WhyRun;
  #active = false;
  /** the buttons and the settings' boxes */
  readonly #controls = el('div', 'al-controls why-controls');
  /** the reader pressed start (and not pause): training runs whenever the section is active */
  #wanted = false;
  /** the run was parked for the section in the other language: destroy() leaves it alive */
  #parked = false;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    mountRoot(host, this.#root, css, CHART_CSS);

    const problems = el('ul', 'why-problems');
    problems.append(el('li', undefined, t('why.longDistance')), el('li', undefined, t('why.compression')));
    // the intro first: it says what Seq2Seq and its context vector are, which the problems name
    this.#root.append(el('p', 'why-intro', t('why.intro')), problems);

    this.#root.append(
      tryThis(t('try.title'), [t('why.try.start'), t('why.try.length'), t('why.try.cell')]),
    );
    const controls = this.#controls;
    this.#startButton = primaryButton(t('why.start'), 'why-start', () => this.#toggle());
    this.#resetButton = button(t('why.reset'), 'why-reset', () => this.#reset(false));
    controls.append(this.#startButton, this.#resetButton);
    const cell = select(
      CELLS.map((c) => [c, c.toUpperCase()] as const),
      state.get('why_cell'),
      'why-cell',
    );
    cell.addEventListener('change', () => {
      this.#narrate(t('why.cell'), cell.value.toUpperCase());
      state.set('why_cell', cell.value as CellName);
    });
    this.#inputs.why_cell = cell;
    controls.append(field(t('why.cell'), cell, state.isHidden('why_cell')));
    for (const [name, key] of [
      ['why_hidden', 'why.hidden'],
      ['why_max_len', 'why.maxLen'],
      ['why_steps', 'why.steps'],
    ] as const) {
      const input = el('input');
      const { min, max } = limits(name);
      Object.assign(input, { type: 'number', min: String(min), max: String(max), step: '1', value: String(state.get(name)) });
      input.dataset.testid = name.replace(/_/g, '-');
      // A refused value stays in the box with a message naming the field; the models are untouched.
      const apply = () => {
        const message = checkNumber(t, t(key), input.value, { min, max, integer: true });
        setFieldError(input, message);
        if (message !== null) return;
        const v = Number(input.value);
        if (v !== state.get(name)) {
          this.#narrate(t(key), String(v));
          state.set(name, v);
        }
      };
      input.addEventListener('change', apply);
      input.addEventListener('input', () => {
        // clear a message as soon as the typed value is fine again (applied on change)
        if (input.getAttribute('aria-invalid') === 'true' && checkNumber(t, t(key), input.value, { min, max, integer: true }) === null) setFieldError(input, null);
      });
      this.#inputs[name] = input;
      controls.append(field(t(key), input, state.isHidden(name)));
    }
    controls.hidden = state.isHidden('controls');
    this.#confirm.hidden = true;
    this.#confirm.setAttribute('role', 'alertdialog');
    this.#confirm.dataset.testid = 'why-confirm';
    this.#empty.textContent = t('why.empty');
    this.#announcer = new Announcer(ctx.lang);
    this.#root.append(controls, this.#confirm, this.#announcer.element, this.#narration, this.#status, this.#error.element, this.#empty);

    // the chart and its export menu under it
    this.#chart = new WhyChart(this.#root, t);
    this.#data.hidden = true;
    this.#data.dataset.testid = 'why-data';
    this.#root.append(el('p', 'why-note', t('why.chance')), this.#data);
    this.#letters = new WhyLettersChart(this.#root, t);

    this.#run = this.#adoptRun() ?? this.#newRun();
    this.#chart.setPrevious(this.#previous);
    this.#render(this.#run.snapshot);
    this.#unsubscribe = state.subscribe((changed) => {
      if (!changed.some((n) => WATCHED.includes(n))) return;
      for (const [name, input] of Object.entries(this.#inputs)) {
        if (!changed.includes(name as PropName) && input.getAttribute('aria-invalid') === 'true') continue; // keep what the reader typed
        input.value = String(state.get(name as PropName));
        setFieldError(input, null);
      }
      // a finished run stays on the chart beside the one the new settings train
      const finished = this.#run.snapshot;
      if (finished.done) this.#previous = { snapshot: finished, cell: this.#run.settings.cell };
      this.#reset(this.#wanted);
    });
  }

  #settings(): WhySettings {
    const s = this.#ctx.state;
    return { cell: s.get('why_cell'), hidden: s.get('why_hidden'), maxLen: s.get('why_max_len'), steps: s.get('why_steps'), seed: s.get('seed') };
  }

  #onUpdate = (snap: WhySnapshot): void => this.#render(snap);
  #onError = (err: unknown): void => {
    this.#wanted = false;
    this.#error.show('error', `${this.#ctx.t('error.prefix')}${errorText(err)}`);
    this.#render(this.#run.snapshot);
  };

  #newRun(): WhyRun {
    return new WhyRun(this.#ctx.lab, this.#settings(), this.#onUpdate, this.#onError);
  }

  /** The run the section left when the page's language changed, if it has these settings. */
  #adoptRun(): WhyRun | null {
    const adopted = parked.adopt(settingsKey(this.#settings()));
    if (!adopted) return null;
    this.#longRunConfirmed = adopted.longRunConfirmed;
    this.#previous = adopted.previous;
    adopted.run.listen(this.#onUpdate, this.#onError);
    return adopted.run;
  }

  #toggle(): void {
    if (this.#run.snapshot.done || !this.#wanted) {
      const refused = refusedFieldsMessage(this.#ctx.t, this.#controls);
      if (refused !== null) {
        this.#error.show('error', refused);
        return;
      }
    }
    // a finished run: the button trains two new models from the start, same settings
    if (this.#run.snapshot.done) return this.#reset(true);
    // Start (Resume) while the long-run question shows answers it: go on with the whole run
    if (!this.#confirm.hidden) return this.#goOn();
    this.#wanted = !this.#wanted;
    this.#error.clear();
    // "… is now …: start again" is answered once the run it asked for starts
    if (this.#wanted) this.#narration.textContent = '';
    this.#confirm.hidden = true;
    this.#sync();
  }

  /** The reader wants the whole run, however long the question said it takes. */
  #goOn(): void {
    this.#longRunConfirmed = true;
    this.#confirm.hidden = true;
    this.#wanted = true;
    this.#error.clear();
    this.#narration.textContent = ''; // "… is now …: start again" is answered
    this.#sync();
  }

  #narrate(label: string, value: string): void {
    this.#narration.textContent = fill(this.#ctx.t('why.changed'), { label, value });
  }

  /** At the measured speed the run would be long: pause and ask, with the estimate. */
  #askLongRun(secondsLeft: number, secondsPerStep: number): void {
    const { t, state } = this.#ctx;
    this.#wanted = false;
    this.#run.pause();
    const fitting = Math.max(limits('why_steps').min, Math.floor(ABOUT_A_MINUTE_SECONDS / secondsPerStep / 10) * 10);
    const text = el(
      'p',
      undefined,
      fill(t('why.confirm.text'), { time: formatDuration(t, secondsLeft), perStep: secondsPerStep < 1 ? `${Math.round(secondsPerStep * 1000)} ms` : `${secondsPerStep.toFixed(1)} s` }),
    );
    const go = primaryButton(t('why.confirm.run'), 'why-confirm-run', () => this.#goOn());
    const fewer = button(fill(t('why.confirm.fewer'), { steps: fitting }), 'why-confirm-fewer', () => {
      this.#confirm.hidden = true;
      this.#narrate(t('why.steps'), String(fitting));
      state.set('why_steps', fitting);
    });
    const cancel = button(t('why.confirm.cancel'), 'why-confirm-cancel', () => {
      this.#confirm.hidden = true;
    });
    const actions = el('div', 'why-confirm-actions');
    actions.append(go, ...(fitting < state.get('why_steps') ? [fewer] : []), cancel);
    this.#confirm.replaceChildren(text, actions);
    this.#confirm.hidden = false;
    go.focus({ preventScroll: true });
  }

  /** Runs exactly when the reader wants it and the section is on screen. */
  #sync(): void {
    if (this.#wanted && this.#active) this.#run.start();
    else this.#run.pause();
    this.#render(this.#run.snapshot);
  }

  #reset(keepRunning: boolean): void {
    void this.#run.destroy();
    this.#run = this.#newRun();
    this.#wanted = keepRunning;
    this.#longRunConfirmed = false;
    this.#confirm.hidden = true;
    this.#error.clear();
    this.#chart.setPrevious(this.#previous);
    this.#chart.update(this.#run.snapshot);
    this.#letters.update(this.#run.snapshot);
    this.#sync();
  }

  #render(snap: WhySnapshot): void {
    const { t } = this.#ctx;
    if (snap.done) {
      this.#wanted = false;
      this.#narration.textContent = ''; // the change it named has been trained on
    }
    const left = this.#run.secondsLeft;
    const perStep = this.#run.secondsPerStep;
    if (this.#run.running && !this.#longRunConfirmed && left !== null && perStep !== null && isLongWait(left)) {
      this.#askLongRun(left, perStep);
    }
    const running = this.#run.running;
    this.#empty.hidden = snap.step > 0;
    // empty axes say nothing: the chart, its legend and menu show from the first step (why.css)
    this.#root.toggleAttribute('data-chart-empty', snap.step === 0);
    this.#startButton.textContent = running ? t('why.pause') : snap.done ? t('why.again') : snap.step > 0 ? t('why.resume') : t('why.start');
    const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');
    this.#status.textContent = snap.done
      ? fill(t('why.status.done'), {
          total: snap.total,
          length: snap.lengths.at(-1) ?? 0,
          plain: percentText(snap.plain.at(-1)),
          attention: percentText(snap.attention.at(-1)),
          exactPlain: percentText(snap.exactPlain.at(-1)),
          exactAttention: percentText(snap.exactAttention.at(-1)),
          chance: percentText(WHY_CHANCE),
        })
      : running
        ? fill(t('why.status.running'), { step: snap.step, total: snap.total, plain: fmt(snap.lossPlain), attention: fmt(snap.lossAttention) }) +
          (left !== null ? fill(t('why.status.left'), { time: formatDuration(t, left) }) : '')
        : snap.step > 0
          ? fill(t('why.status.paused'), { step: snap.step, total: snap.total })
          : t('why.status.idle');
    this.#announcer.track(snap.done ? 'done' : running ? 'training' : snap.step > 0 ? 'paused' : 'idle', this.#status.textContent ?? '', { named: false });
    this.#root.dataset.step = String(snap.step);
    this.#root.dataset.state = snap.done ? 'done' : running ? 'running' : 'idle';
    this.#data.value = JSON.stringify(snap);
    this.#chart.update(snap);
    this.#letters.update(snap);
  }

  setActive(active: boolean): void {
    this.#active = active;
    this.#sync();
  }

  onWorkerRestart(): void {
    this.#reset(false);
  }

  park(): void {
    const run = this.#run;
    run.pause(); // the reader resumes it in the other language
    run.listen(
      () => {},
      () => {},
    );
    parked.park(settingsKey(run.settings), { run, longRunConfirmed: this.#longRunConfirmed, previous: this.#previous }, (p) => void p.run.destroy());
    this.#parked = true;
  }

  destroy(): void {
    this.#unsubscribe();
    this.#announcer.destroy();
    if (!this.#parked) void this.#run.destroy();
    this.#chart.destroy();
    this.#letters.destroy();
    this.#root.remove();
  }
}

export const whySection: SectionModule = {
  id: 'why',
  strings: WHY_STRINGS,
  mount: (host, ctx) => new WhyView(host, ctx),
};
