// §3.3 Encoder-decoder attention: the note's translator trained live in the worker (play / pause /
// step / reset, speed, progress against the recipe, loss and accuracy charts), then a sentence
// translated and decoded step by step (translate-decode.ts). Also the dates task, whose inputs
// readers can invent. Settings live in the s2s_* rows of the state table.
import type { CellName } from '../../../shared/types/seq2seq';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import css from './translate.css?inline';
import { StepChart, movingAverage } from './translate-charts';
import { DecodeView } from './translate-decode';
import { downloadCanvasPng, downloadCsv, downloadJson, exportButtons } from '../export';
import { button, el, errorText, field, select, mountRoot } from './dom';
import { SentenceInput } from './translate-input';
import { TRANSLATE_STRINGS } from './translate-strings';
import { DivergedError, RECIPES, TranslateTrainer, type ScoreSetting, type TaskName } from './translate-train';
import { fill } from '../i18n';
import { HEATMAP_CSS } from '../heatmap';

const MODEL_SETTINGS: readonly PropName[] = ['seed', 's2s_task', 's2s_cell', 's2s_hidden', 's2s_score', 's2s_lr'];

class TranslateView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'tr-section');
  readonly #play: HTMLButtonElement;
  readonly #pause: HTMLButtonElement;
  readonly #stepButton: HTMLButtonElement;
  readonly #progress = el('progress');
  readonly #progressText = el('span', 'tr-progress-text');
  readonly #status = el('p', 'tr-status');
  readonly #error = el('p', 'tr-error');
  readonly #losses = el('output', 'tr-losses');
  readonly #lossChart: StepChart;
  readonly #accChart: StepChart;
  readonly #input: SentenceInput;
  readonly #decode: DecodeView;
  readonly #controls: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};
  readonly #unsubscribe: () => void;
  #trainer: TranslateTrainer;
  #playing = false;
  #active = false;
  #busy = false;
  #frame = 0;
  #translateSeq = 0;
  #destroyed = false;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, css);
    this.#root.append(el('p', 'tr-intro', t('tr.intro')));

    // Training controls
    const run = el('div', 'al-controls tr-run');
    this.#play = button(t('tr.play'), 's2s-play', () => this.#setPlaying(true));
    this.#pause = button(t('tr.pause'), 's2s-pause', () => this.#setPlaying(false));
    this.#stepButton = button(t('tr.step'), 's2s-step', () => void this.#stepOnce());
    run.append(this.#play, this.#pause, this.#stepButton, button(t('tr.reset'), 's2s-reset', () => this.#reset()));
    run.append(this.#numberInput('s2s_speed', 'tr.speed', 1));
    this.#progress.dataset.testid = 's2s-progress';
    this.#progress.setAttribute('aria-label', t('tr.progressLabel'));
    const progress = el('div', 'tr-progress');
    progress.append(this.#progress, this.#progressText);

    // Model settings
    const settings = el('div', 'al-controls tr-settings');
    const task = select([['note', t('tr.task.note')], ['dates', t('tr.task.dates')]], state.get('s2s_task'), 's2s-task');
    task.addEventListener('change', () => this.#switchTask(task.value as TaskName));
    this.#controls.s2s_task = task;
    const cell = select(['rnn', 'gru', 'lstm'].map((c) => [c, c.toUpperCase()] as const), state.get('s2s_cell'), 's2s-cell');
    cell.addEventListener('change', () => state.set('s2s_cell', cell.value as CellName));
    this.#controls.s2s_cell = cell;
    const scores: [ScoreSetting, string][] = [['none', t('tr.score.none')], ['dot', 'dot'], ['scaled', 'scaled dot'], ['general', 'general'], ['additive', 'additive'], ['cosine', 'cosine']];
    const score = select(scores, state.get('s2s_score'), 's2s-score');
    score.addEventListener('change', () => state.set('s2s_score', score.value as ScoreSetting));
    this.#controls.s2s_score = score;
    settings.append(
      field(t('tr.task'), task, state.isHidden('s2s_task')),
      field(t('tr.cell'), cell, state.isHidden('s2s_cell')),
      this.#numberInput('s2s_hidden', 'tr.hidden', 1),
      field(t('tr.score'), score, state.isHidden('s2s_score')),
      this.#numberInput('s2s_lr', 'tr.lr', 'any'),
      this.#numberInput('s2s_beam', 'tr.beam', 1),
    );
    run.hidden = settings.hidden = state.isHidden('controls');
    this.#error.dataset.testid = 's2s-error';
    this.#losses.hidden = true;
    this.#losses.dataset.testid = 's2s-losses';
    this.#root.append(run, settings, progress, this.#status, this.#error, this.#losses);

    const charts = el('div', 'tr-charts');
    this.#lossChart = new StepChart(charts, t('tr.loss'), t('tr.axis.step'), '#c2410c');
    this.#accChart = new StepChart(charts, t('tr.accuracy'), t('tr.axis.step'), '#15803d', [0, 1]);
    const history = () => ({ losses: this.#trainer.losses, tokenAccuracy: this.#trainer.accuracies, settings: this.#trainer.settings });
    this.#root.append(
      charts,
      exportButtons(
        t,
        {
          ...this.#lossChart.pictures('s2s-loss'),
          csv: () => {
            const { losses, accuracies } = this.#trainer;
            downloadCsv('s2s-training', losses.map((_, i) => String(i + 1)), ['loss', 'token accuracy'], losses.flatMap((l, i) => [l, accuracies[i]]));
          },
          json: () => downloadJson('s2s-training', history()),
        },
        t('tr.loss'),
      ),
    );

    this.#input = new SentenceInput(this.#root, ctx);
    this.#decode = new DecodeView(this.#root, t);

    this.#trainer = this.#newTrainer();
    this.#unsubscribe = state.subscribe((changed) => this.#onState(changed));
    this.#syncControls();
    this.#render();
    void this.#prepare();
  }

  #numberInput(name: 's2s_speed' | 's2s_hidden' | 's2s_lr' | 's2s_beam', key: string, step: number | 'any'): HTMLLabelElement {
    const input = el('input');
    input.type = 'number';
    input.step = String(step);
    input.dataset.testid = name.replace('_', '-');
    input.addEventListener('change', () => {
      try {
        this.#ctx.state.set(name, Number(input.value));
        input.removeAttribute('aria-invalid');
      } catch (err) {
        input.setAttribute('aria-invalid', 'true');
        this.#error.textContent = `${this.#ctx.t('error.prefix')}${errorText(err)}`;
      }
    });
    this.#controls[name] = input;
    return field(this.#ctx.t(key), input, this.#ctx.state.isHidden(name));
  }

  #settings() {
    const s = this.#ctx.state;
    return { task: s.get('s2s_task'), cell: s.get('s2s_cell'), hidden: s.get('s2s_hidden'), score: s.get('s2s_score'), lr: s.get('s2s_lr'), seed: s.get('seed') };
  }

  #newTrainer(): TranslateTrainer {
    return new TranslateTrainer(this.#ctx.lab, this.#settings());
  }

  #syncControls(): void {
    const s = this.#ctx.state;
    for (const [name, control] of Object.entries(this.#controls)) control.value = String(s.get(name as PropName));
    this.#input.sync();
  }

  #onState(changed: readonly PropName[]): void {
    this.#syncControls();
    if (changed.some((n) => MODEL_SETTINGS.includes(n))) {
      this.#reset();
    } else if (changed.includes('s2s_text') || changed.includes('s2s_beam')) {
      void this.#translate();
    }
  }

  /** A task switch by the reader also applies that task's recipe (cell, size, rate) and an example. */
  #switchTask(task: TaskName): void {
    const r = RECIPES[task];
    this.#ctx.state.update({ s2s_task: task, s2s_cell: r.cell, s2s_hidden: r.hidden, s2s_lr: r.lr, s2s_text: SentenceInput.firstExample(task) });
  }

  async #prepare(): Promise<void> {
    const trainer = this.#trainer;
    this.#status.textContent = this.#ctx.t('tr.status.creating');
    try {
      await trainer.ready();
    } catch (err) {
      if (trainer === this.#trainer) this.#error.textContent = `${this.#ctx.t('error.prefix')}${errorText(err)}`;
      return;
    }
    if (trainer !== this.#trainer) return;
    this.#input.showVocabulary(trainer.vocabulary.source, trainer.info?.sourceTokenizer === 'chars');
    this.#render();
    await this.#translate();
  }

  #reset(): void {
    this.#setPlaying(false);
    void this.#trainer.delete();
    this.#trainer = this.#newTrainer();
    this.#error.textContent = '';
    this.#input.showError('');
    this.#decode.clear();
    this.#render();
    void this.#prepare();
  }

  #setPlaying(playing: boolean): void {
    this.#playing = playing;
    if (playing) this.#error.textContent = '';
    this.#render();
    if (playing && this.#active) this.#schedule();
    if (!playing) void this.#translate();
  }

  #schedule(): void {
    if (this.#frame || this.#destroyed) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      void this.#tick();
    });
  }

  /** One frame of training: s2s_speed steps (in worker calls of ~50 ms), then a redraw. */
  async #tick(): Promise<void> {
    if (!this.#playing || !this.#active || this.#busy) return;
    const trainer = this.#trainer;
    const recipe = trainer.recipeSteps;
    let steps = this.#ctx.state.get('s2s_speed');
    // Stop exactly at the end of the recipe (playing again continues beyond it).
    if (trainer.step < recipe) steps = Math.min(steps, recipe - trainer.step);
    await this.#train(steps, () => !this.#playing);
    if (trainer !== this.#trainer) return;
    if (trainer.step === recipe && this.#playing) this.#setPlaying(false);
    if (this.#playing && this.#active) this.#schedule();
  }

  async #stepOnce(): Promise<void> {
    this.#setPlaying(false);
    await this.#train(1, () => false);
    await this.#translate();
  }

  async #train(steps: number, shouldStop: () => boolean): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    const trainer = this.#trainer;
    try {
      await trainer.train(steps, shouldStop);
    } catch (err) {
      if (trainer !== this.#trainer) return;
      this.#playing = false;
      const text = err instanceof DivergedError ? `${this.#ctx.t('tr.diverged')} (${err.message})` : errorText(err);
      this.#error.textContent = `${this.#ctx.t('error.prefix')}${text}`;
      void this.#translate();
    } finally {
      this.#busy = false;
      if (trainer === this.#trainer) this.#render();
    }
  }

  /** Translates the current sentence with the model as it is now and plays the decoding. */
  async #translate(): Promise<void> {
    const trainer = this.#trainer;
    const model = trainer.model;
    if (!model || this.#destroyed) return;
    const seq = ++this.#translateSeq;
    const beam = this.#ctx.state.get('s2s_beam');
    try {
      const result = await model.translate(this.#input.sourceText(), beam > 1 ? { beam, topK: 5 } : { topK: 5 });
      if (seq !== this.#translateSeq || trainer !== this.#trainer) return;
      this.#input.showError('');
      // Which model state this decoding shows (tests wait for it).
      this.#decode.element.dataset.modelStep = String(trainer.step);
      this.#decode.show(result, trainer.info?.targetTokenizer ?? 'words', trainer.settings.score !== 'none');
    } catch (err) {
      if (seq === this.#translateSeq) this.#input.showError(`${this.#ctx.t('error.prefix')}${errorText(err)}`);
    }
  }

  #render(): void {
    const { t } = this.#ctx;
    const trainer = this.#trainer;
    const { step, recipeSteps } = trainer;
    this.#play.disabled = this.#playing;
    this.#pause.disabled = !this.#playing;
    this.#stepButton.disabled = this.#busy;
    this.#progress.max = recipeSteps;
    this.#progress.value = Math.min(step, recipeSteps);
    this.#progressText.textContent = fill(t(step > recipeSteps || (step === recipeSteps && step > 0) ? 'tr.progress.beyond' : 'tr.progress'), { step, total: recipeSteps });
    const info = trainer.info;
    if (info) {
      const attention = info.attention ? fill(t('tr.attention.score'), { score: info.score }) : t('tr.attention.none');
      this.#status.textContent = fill(t('tr.status.ready'), { params: info.parameterCount, cell: info.cell.toUpperCase(), hidden: info.hidden, attention });
    }
    this.#root.dataset.step = String(step);
    this.#root.dataset.playing = this.#playing ? '1' : '0';
    this.#losses.value = JSON.stringify(trainer.losses);
    this.#lossChart.update(trainer.losses);
    this.#accChart.update(movingAverage(trainer.accuracies, trainer.settings.task === 'note' ? 20 : 10));
  }

  setActive(active: boolean): void {
    this.#active = active;
    if (active && this.#playing) this.#schedule();
  }

  onWorkerRestart(): void {
    this.#reset();
  }

  destroy(): void {
    this.#destroyed = true;
    this.#playing = false;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#unsubscribe();
    void this.#trainer.delete();
    this.#decode.destroy();
    this.#lossChart.destroy();
    this.#accChart.destroy();
    this.#root.remove();
  }
}

export const translateSection: SectionModule = {
  id: 'translate',
  title: { en: '3.3 Encoder-decoder attention', zh: '3.3 解码器-编码器注意力' },
  strings: TRANSLATE_STRINGS,
  mount: (host, ctx) => new TranslateView(host, ctx),
};
