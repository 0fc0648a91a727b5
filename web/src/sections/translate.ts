// §3.3 Encoder-decoder attention: a translator trained live in the worker (play / pause / step /
// reset, speed, progress against the recipe, loss and accuracy charts), then a sentence translated
// and decoded step by step (translate-decode.ts). The default task is the grammar corpus (zh-en),
// where word order differs and a plain Seq2Seq trained beside the attention model shows what
// attention is for (translate-compare.ts); the note's five sentences (the book's recipe) and the
// dates task are the other choices. Settings live in the s2s_* rows of the state table.
// Over the ~400-line guide: one view class wires training, decoding, comparison and input; the
// parts with their own logic already live in translate-*.ts.
import type { CellName } from '#shared/types/seq2seq';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import { CELLS, SCORES } from '../state-table';
import css from './translate.css?inline';
import { StepChart, movingAverage } from './translate-charts';
import { DecodeView } from './translate-decode';
import type { ArticleExtras } from './translate-article';
import { downloadCanvasPng, downloadCsv, downloadJson, exportButtons } from '../export';
import { button, el, errorText, field, select, mountRoot, MessageLine, setFieldError, tryThis } from './dom';
import { SentenceInput } from './translate-input';
import type { CompareRow, CompareView } from './translate-compare';
import { introText, numberProblem, timeLeftText, tryPrompts } from './translate-text';
import { TRANSLATE_STRINGS } from './translate-strings';
import { DivergedError, RECIPES, TranslateTrainer, type ScoreSetting, type TaskName } from './translate-train';
import { fill } from '../i18n';
import { HEATMAP_CSS } from '../heatmap/heatmap';

const MODEL_SETTINGS: readonly PropName[] = ['seed', 's2s_task', 's2s_cell', 's2s_hidden', 's2s_score', 's2s_lr'];
/** The label of each model setting, for the notice that a change discarded the trained model. */
const SETTING_LABELS: Partial<Record<PropName, string>> = {
  seed: 'tr.seed',
  s2s_task: 'tr.task',
  s2s_cell: 'tr.cell',
  s2s_hidden: 'tr.hidden',
  s2s_score: 'tr.score',
  s2s_lr: 'tr.lr',
};
/** Held-out evaluation while playing, every this many steps (and at every pause). */
const EVALUATE_EVERY = 200;
/** s2s_speed is in steps per frame; the worker's throttle is in steps per second */
const FRAMES_PER_SECOND = 60;
/** playing on after the recipe: until paused */
const OPEN_ENDED_STEPS = 10_000_000;

class TranslateView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'tr-section');
  readonly #play: HTMLButtonElement;
  readonly #pause: HTMLButtonElement;
  readonly #stepButton: HTMLButtonElement;
  readonly #progress = el('progress');
  readonly #progressText = el('span', 'tr-progress-text');
  /** the time left to the end of the recipe at the speed measured over the current run */
  readonly #timeLeft = el('span', 'tr-progress-text tr-time-left');
  /** the current run's start (performance.now(), step), or null while not playing */
  #runStart: { ms: number; step: number } | null = null;
  readonly #status = el('p', 'tr-status');
  readonly #error = el('p', 'tr-error');
  readonly #intro = el('p', 'tr-intro');
  readonly #caption = el('p', 'tr-note tr-caption');
  /** the "Try this" prompts of the chosen task */
  readonly #try = el('div', 'tr-try');
  /** what the prompts and the score table's heading were last written for: a task, or zh-en 'compare' / 'single' */
  #taskShown = '';
  readonly #notice = new MessageLine('tr-notice');
  readonly #chartsEmpty = el('p', 'tr-note tr-charts-empty');
  readonly #untrained = el('p', 'tr-untrained');
  readonly #sentenceAlignment = el('p', 'tr-note tr-sentence-alignment');
  readonly #compareHost = el('div', 'tr-compare');
  readonly #compareTitle = el('h3');
  readonly #compareEmpty = el('p', 'tr-note tr-compare-empty');
  /** loaded with the first evaluation (translate-compare.ts) */
  #compare: CompareView | null = null;
  #compareLoading: Promise<typeof import('./translate-compare')> | null = null;
  readonly #losses = el('output', 'tr-losses');
  readonly #lossChart: StepChart;
  readonly #accChart: StepChart;
  readonly #input: SentenceInput;
  readonly #decode: DecodeView;
  /** the article's only (translate-article.ts): ask why, the timeline, bring your own; null in widgets */
  #extras: ArticleExtras | null = null;
  readonly #controls: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};
  readonly #unsubscribe: () => void;
  #trainer: TranslateTrainer;
  /** zh-en with attention: a plain Seq2Seq with the same settings, trained step for step beside it */
  #plain: TranslateTrainer | null = null;
  #playing = false;
  #active = false;
  #busy = false;
  #frame = 0;
  /** the training streams while playing; #running settles when they have ended */
  #streams: Array<{ done: Promise<void>; stop(): void }> = [];
  #running: Promise<void> | null = null;
  #translateSeq = 0;
  #destroyed = false;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, css);
    this.#intro.dataset.testid = 's2s-intro';
    this.#caption.dataset.testid = 's2s-caption';
    this.#root.append(this.#intro, this.#caption, this.#try);

    // Training controls
    const run = el('div', 'al-controls tr-run');
    this.#play = button(t('tr.play'), 's2s-play', () => this.#setPlaying(true));
    // Train is the section's one primary action.
    this.#play.classList.add('lab-button', 'primary');
    this.#pause = button(t('tr.pause'), 's2s-pause', () => this.#setPlaying(false));
    this.#stepButton = button(t('tr.step'), 's2s-step', () => void this.#stepOnce());
    run.append(this.#play, this.#pause, this.#stepButton, button(t('tr.reset'), 's2s-reset', () => this.#reset()));
    run.append(this.#numberInput('s2s_speed', 'tr.speed', 1));
    this.#progress.dataset.testid = 's2s-progress';
    this.#progress.setAttribute('aria-label', t('tr.progressLabel'));
    const progress = el('div', 'tr-progress');
    this.#timeLeft.dataset.testid = 's2s-time-left';
    progress.append(this.#progress, this.#progressText, this.#timeLeft);

    // Model settings
    const settings = el('div', 'al-controls tr-settings');
    const task = select([['zh-en', t('tr.task.zh-en')], ['note', t('tr.task.note')], ['dates', t('tr.task.dates')]], state.get('s2s_task'), 's2s-task');
    task.addEventListener('change', () => this.#switchTask(task.value as TaskName));
    this.#controls.s2s_task = task;
    const cell = select(CELLS.map((c) => [c, c.toUpperCase()] as const), state.get('s2s_cell'), 's2s-cell');
    cell.addEventListener('change', () => state.set('s2s_cell', cell.value as CellName));
    this.#controls.s2s_cell = cell;
    const scores: [ScoreSetting, string][] = [['none', t('tr.score.none')], ...SCORES.map((s) => [s, t(`tr.score.${s}`)] as [ScoreSetting, string])];
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
    this.#notice.element.dataset.testid = 's2s-notice';
    this.#root.append(run, settings, progress, this.#status, this.#error, this.#notice.element, this.#losses);

    this.#compareHost.dataset.testid = 's2s-compare';
    this.#compareHost.append(this.#compareTitle, this.#compareEmpty);
    this.#root.append(this.#compareHost);

    // The charts' empty state lives here, in the DOM around them (the charts draw only data).
    this.#chartsEmpty.textContent = t('tr.charts.empty');
    this.#chartsEmpty.dataset.testid = 's2s-charts-empty';
    this.#root.append(this.#chartsEmpty);
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
    this.#untrained.textContent = t('tr.untrained');
    this.#untrained.dataset.testid = 's2s-untrained';
    this.#sentenceAlignment.dataset.testid = 's2s-sentence-alignment';
    this.#root.append(this.#untrained);
    this.#decode = new DecodeView(this.#root, t);
    const whyHost = el('div');
    this.#root.append(whyHost, this.#sentenceAlignment);
    if (!ctx.embedded) {
      void import('./translate-article').then(({ ArticleExtras }) => {
        if (this.#destroyed) return;
        this.#extras = new ArticleExtras(whyHost, this.#root, ctx, () => this.#trainer);
        // the model made before this code arrived records from its first step too
        if (this.#trainer.model && this.#trainer.step === 0) void this.#extras.startTimeline(this.#trainer, this.#input.sourceText());
        void this.#translate();
      });
    }

    this.#trainer = this.#newTrainer();
    this.#plain = this.#newPlainTrainer();
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
      const { t } = this.#ctx;
      const label = t(key);
      // Checked against the state table's limits first, so the message names the field by its
      // label and the typed value stays in the box; the state (and so the model) is left alone.
      let problem = numberProblem(name, input.value, label, t);
      if (!problem) {
        try {
          this.#ctx.state.set(name, Number(input.value));
        } catch (err) {
          problem = `${label}: ${errorText(err)}`;
        }
      }
      // the shared field errors (dom.ts): the message under the box, the box marked aria-invalid
      setFieldError(input, problem || null);
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

  /** The plain companion: only on the grammar corpus, and only when the main model has attention. */
  #newPlainTrainer(): TranslateTrainer | null {
    const settings = this.#settings();
    if (settings.task !== 'zh-en' || settings.score === 'none') return null;
    return new TranslateTrainer(this.#ctx.lab, { ...settings, score: 'none' });
  }

  #syncControls(): void {
    const s = this.#ctx.state;
    for (const [name, control] of Object.entries(this.#controls)) {
      // A box holding a rejected value keeps it (the error names it) until the reader fixes it.
      if (control.getAttribute('aria-invalid') === 'true') continue;
      control.value = String(s.get(name as PropName));
    }
    this.#input.sync();
  }

  #onState(changed: readonly PropName[]): void {
    this.#syncControls();
    this.#extras?.onState(changed);
    const setting = changed.find((n) => MODEL_SETTINGS.includes(n));
    if (setting) {
      const steps = this.#trainer.step;
      this.#reset();
      // Say so when the change threw a trained model away.
      if (steps > 0) {
        const { t } = this.#ctx;
        this.#notice.show('info', fill(t('tr.discarded'), { setting: t(SETTING_LABELS[setting] ?? 'tr.task'), steps }));
      }
    } else if (changed.includes('s2s_text') || changed.includes('s2s_beam')) {
      void this.#translate();
    }
  }

  /** A task switch by the reader also applies that task's recipe (cell, size, rate) and an example. */
  #switchTask(task: TaskName): void {
    const r = RECIPES[task];
    this.#input.forgetChoice();
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
    await this.#extras?.startTimeline(trainer, this.#input.sourceText());
    if (trainer !== this.#trainer) return;
    this.#input.showVocabulary(trainer.vocabulary.source, trainer.info?.sourceTokenizer === 'chars');
    if (trainer.settings.task === 'zh-en') {
      // Held-out sentences to try, the longest first: the default sentence is a long one.
      const sentences = trainer.heldOut.map((e) => e.source).sort((a, b) => b.split(' ').length - a.split(' ').length);
      this.#input.setHeldOut(sentences.slice(0, 5));
    }
    this.#render();
    await this.#translate();
  }

  #reset(): void {
    this.#setPlaying(false);
    void this.#trainer.delete();
    void this.#plain?.delete();
    this.#trainer = this.#newTrainer();
    this.#plain = this.#newPlainTrainer();
    this.#error.textContent = '';
    this.#notice.show('info', '');
    this.#input.showError('');
    this.#decode.clear();
    this.#render();
    void this.#prepare();
  }

  #setPlaying(playing: boolean): void {
    this.#playing = playing;
    if (!playing) this.#stopStreams();
    if (playing) this.#error.textContent = '';
    this.#render();
    if (playing && this.#active) this.#schedule();
    if (!playing) void this.#evaluate().then(() => this.#translate());
  }

  /** Scores the model (and its plain companion) on the held-out set, then redraws the table. */
  async #evaluate(): Promise<void> {
    const trainer = this.#trainer;
    const plain = this.#plain;
    if (trainer.step === 0) return;
    try {
      await trainer.evaluate();
      if (plain && plain.step > 0) await plain.evaluate();
    } catch (err) {
      if (trainer === this.#trainer) this.#error.textContent = `${this.#ctx.t('error.prefix')}${errorText(err)}`;
    }
    if (trainer === this.#trainer) {
      this.#render();
      this.#extras?.refreshTimeline(trainer);
    }
  }

  /** Starts playing (the training streams) unless they already run. */
  #schedule(): void {
    if (this.#running || this.#destroyed || this.#busy) return;
    this.#running = this.#run().finally(() => {
      this.#running = null;
      // played again (or scrolled back) while the last streams were ending
      if (this.#playing && this.#active && !this.#destroyed) this.#schedule();
    });
  }

  /** Redraws at most once a frame, however often the worker reports. */
  #redrawSoon(): void {
    if (this.#frame || this.#destroyed) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#render();
    });
  }

  #stopStreams(): void {
    for (const stream of this.#streams) stream.stop();
  }

  /**
   * Plays: the model (and its plain companion, to the same step) train as streams inside the
   * worker, with no request round trip per chunk, at most s2s_speed steps per frame (60 frames a
   * second); the page redraws once a frame and evaluates every EVALUATE_EVERY steps. It ends at
   * the end of the recipe (playing again continues beyond it), on pause, or when scrolled away.
   */
  async #run(): Promise<void> {
    const trainer = this.#trainer;
    const plain = this.#plain;
    const recipe = trainer.recipeSteps;
    const steps = trainer.step < recipe ? recipe - trainer.step : OPEN_ENDED_STEPS;
    const target = trainer.step + steps;
    const maxStepsPerSecond = this.#ctx.state.get('s2s_speed') * FRAMES_PER_SECOND;
    let evaluatedBlock = Math.floor(trainer.step / EVALUATE_EVERY);
    const onProgress = (): void => {
      if (trainer !== this.#trainer) return;
      this.#redrawSoon();
      const block = Math.floor(trainer.step / EVALUATE_EVERY);
      if (block > evaluatedBlock && trainer.step < recipe) {
        evaluatedBlock = block;
        void this.#evaluate();
      }
    };
    this.#busy = true;
    this.#runStart = { ms: performance.now(), step: trainer.step };
    this.#streams = [trainer.play(steps, { maxStepsPerSecond, onProgress })];
    if (plain && plain.step < target) {
      this.#streams.push(plain.play(target - plain.step, { maxStepsPerSecond, onProgress: () => this.#redrawSoon() }));
    }
    try {
      await Promise.all(this.#streams.map((stream) => stream.done));
      // A pause can leave the plain model behind: it follows to the same step.
      if (plain && trainer === this.#trainer && plain.step < trainer.step) await plain.train(trainer.step - plain.step);
    } catch (err) {
      this.#stopStreams();
      if (trainer !== this.#trainer) return;
      this.#playing = false;
      const text = err instanceof DivergedError ? `${this.#ctx.t('tr.diverged')} (${err.message})` : errorText(err);
      this.#error.textContent = `${this.#ctx.t('error.prefix')}${text}`;
      void this.#translate();
    } finally {
      this.#streams = [];
      this.#busy = false;
      this.#runStart = null;
      if (trainer === this.#trainer) {
        if (trainer.step >= target && this.#playing) this.#setPlaying(false);
        else this.#render();
      }
    }
  }

  async #stepOnce(): Promise<void> {
    this.#setPlaying(false);
    await this.#train(1, () => false);
    await this.#evaluate();
    await this.#translate();
  }

  async #train(steps: number, shouldStop: () => boolean): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    const trainer = this.#trainer;
    const plain = this.#plain;
    try {
      await trainer.train(steps, shouldStop);
      // The plain model follows step for step, so the two are always compared at equal steps.
      if (plain && plain.step < trainer.step) await plain.train(trainer.step - plain.step);
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
    const { t } = this.#ctx;
    const text = this.#input.sourceText();
    const chars = trainer.info?.sourceTokenizer === 'chars';
    this.#sentenceAlignment.textContent = '';
    if (text.trim() === '') {
      // Nothing to translate: no old result stays on screen.
      this.#decode.clear();
      this.#extras?.clear();
      this.#decode.element.dataset.modelStep = String(trainer.step);
      this.#input.showNote('info', t(trainer.settings.task === 'dates' ? 'tr.empty.dates' : 'tr.empty'));
      return;
    }
    try {
      const result = await model.translate(text, beam > 1 ? { beam, topK: 5 } : { topK: 5 });
      if (seq !== this.#translateSeq || trainer !== this.#trainer) return;
      this.#input.showError('');
      this.#input.showUnknown(result.source.filter((s) => s.unknown).map((s) => s.text), text, chars, trainer.vocabulary.source);
      // Which model state this decoding shows (tests wait for it).
      this.#decode.element.dataset.modelStep = String(trainer.step);
      this.#decode.show(result, trainer.info?.targetTokenizer ?? 'words', trainer.settings.score !== 'none');
      this.#extras?.show(trainer, text, result);
      const example = trainer.heldOut.find((e) => e.source === text.trim().split(/\s+/u).join(' '));
      const compare = trainer.step > 0 ? await this.#compareModule() : null;
      if (seq !== this.#translateSeq || trainer !== this.#trainer) return;
      const aligned = compare ? compare.sentenceAlignment(result, example) : null;
      this.#sentenceAlignment.textContent = compare ? compare.alignmentReadout(aligned, this.#ctx.lang) : '';
      this.#sentenceAlignment.dataset.hits = aligned ? String(aligned.hits) : '';
      this.#sentenceAlignment.dataset.scored = aligned ? String(aligned.scored) : '';
    } catch (err) {
      if (seq !== this.#translateSeq) return;
      // A sentence the model cannot take (too long, say): clear the old result, say why.
      this.#decode.clear();
      this.#extras?.clear();
      this.#input.showNote('info', '');
      this.#input.showError(`${t('error.prefix')}${errorText(err)}`);
    }
  }

  /** The intro in the words of the chosen task, with the settings actually in use. */
  #renderIntro(): void {
    const { t, state } = this.#ctx;
    const task = state.get('s2s_task');
    this.#intro.textContent = introText(t, this.#settings(), this.#trainer.info, this.#trainer.recipeSteps);
    this.#caption.textContent = task === 'note' ? t('tr.caption.note') : '';
    this.#caption.hidden = task !== 'note';
    // the prompts and the score table's heading follow the task (redrawn only when it changes)
    const kind = task !== 'zh-en' ? task : this.#plain ? 'compare' : 'single';
    if (kind !== this.#taskShown) {
      this.#taskShown = kind;
      const prompts = tryPrompts(t, task);
      this.#try.replaceChildren(...(prompts.length ? [tryThis(t('try.title'), prompts)] : []));
      this.#compareTitle.textContent = t(kind === 'compare' ? 'tr.compare.title' : `tr.compare.title.${kind}`);
      this.#compareEmpty.textContent = t(kind === 'compare' ? 'tr.compare.empty' : `tr.compare.empty.${kind}`);
    }
  }

  /** While playing towards the recipe's end: the time left at the speed measured since play (after a second of it). */
  #timeLeftText(step: number, recipeSteps: number): string {
    const start = this.#runStart;
    if (!this.#playing || !start || step >= recipeSteps) return '';
    const seconds = (performance.now() - start.ms) / 1000;
    if (seconds < 1 || step <= start.step) return '';
    return timeLeftText(this.#ctx.t, recipeSteps - step, (step - start.step) / seconds);
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
    this.#timeLeft.textContent = this.#timeLeftText(step, recipeSteps);
    const info = trainer.info;
    if (info) {
      const attention = info.attention ? fill(t('tr.attention.score'), { score: info.score }) : t('tr.attention.none');
      this.#status.textContent = fill(t('tr.status.ready'), { params: info.parameterCount, cell: info.cell.toUpperCase(), hidden: info.hidden, attention });
    }
    this.#renderIntro();
    this.#untrained.hidden = step > 0;
    this.#chartsEmpty.hidden = step > 0;
    const score = trainer.settings.score;
    const rows: CompareRow[] = [
      { id: score === 'none' ? 'plain' : 'attention', score, scoreLabel: t(`tr.score.${score}`), step: trainer.evaluatedAt, evaluation: trainer.evaluation, trainMs: trainer.trainMs },
    ];
    const plain = this.#plain;
    if (plain) rows.push({ id: 'plain', score, step: plain.evaluatedAt, evaluation: plain.evaluation, trainMs: plain.trainMs });
    this.#renderCompare(rows, trainer.info?.sourceTokenizer === 'chars');
    this.#root.dataset.step = String(step);
    this.#root.dataset.playing = this.#playing ? '1' : '0';
    this.#losses.value = JSON.stringify(trainer.losses);
    this.#lossChart.update(trainer.losses);
    this.#accChart.update(movingAverage(trainer.accuracies, trainer.settings.task === 'note' ? 20 : 10));
  }

  /** The comparison code, fetched once the model has trained (the first figure needs it). */
  #compareModule(): Promise<typeof import('./translate-compare')> {
    this.#compareLoading ??= import('./translate-compare');
    return this.#compareLoading;
  }

  /** The table, once there is a figure to show. */
  #renderCompare(rows: CompareRow[], chars: boolean): void {
    if (this.#compare) {
      this.#compare.update(rows, chars);
    } else if (rows.some((r) => r.evaluation)) {
      void this.#compareModule().then(({ CompareView }) => {
        if (this.#destroyed || this.#compare) return;
        this.#compare = new CompareView(this.#compareHost, this.#compareEmpty, this.#ctx.lang);
        this.#render();
      });
    }
  }

  setActive(active: boolean): void {
    this.#active = active;
    // Off-screen it pauses (the streams end), and plays on when it is back in view.
    if (!active) this.#stopStreams();
    if (active && this.#playing) this.#schedule();
  }

  onWorkerRestart(): void {
    this.#reset();
  }

  destroy(): void {
    this.#destroyed = true;
    this.#playing = false;
    this.#stopStreams();
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#unsubscribe();
    void this.#trainer.delete();
    void this.#plain?.delete();
    this.#decode.destroy();
    this.#extras?.destroy();
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
