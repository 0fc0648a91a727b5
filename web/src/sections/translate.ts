// §3.3 Encoder-decoder attention: a translator trained live in the worker (play / pause / step /
// reset, speed, progress against the recipe, loss and accuracy charts), then a sentence translated
// and decoded step by step (translate-decode.ts). The default task is the grammar corpus (zh-en),
// where word order differs and a plain Seq2Seq trained beside the attention model shows what
// attention is for (translate-compare.ts); the note's five sentences (the book's recipe) and the
// dates task are the other choices. Settings live in the translate_* rows of the state table.
// The parts with their own logic live in translate-*.ts: the controls, the player, the decoding,
// the comparison, the sentence box, the training curves (§4's too, translate-charts.ts), and what
// only the article has (translate-article.ts).
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import css from './translate.css?inline';
import { TrainingCurves } from './translate-charts';
import { DecodeView } from './translate-decode';
import type { ArticleExtras } from './translate-article';
import { button, el, errorText, mountRoot, MessageLine, namedFieldMessage, setText, tryThis } from './dom';
import { SentenceInput } from './translate-input';
import type { CompareRow, CompareView } from './translate-compare';
import { introText, tryPrompts } from './translate-text';
import { TRANSLATE_STRINGS } from './translate-strings';
import { RECIPES, TranslateTrainer, type TaskName } from './translate-train';
import { MODEL_SETTINGS, SETTING_LABELS, TranslateControls } from './translate-controls';
import { TranslatePlayer } from './translate-play';
import { fill } from '../i18n';
import { sentenceTooLongText } from './sentence-error';
import { HEATMAP_CSS } from '../heatmap/heatmap';
import { Panel } from './panel';
import type { Seq2SeqDiagramLink } from '../diagrams/seq2seq-link';
import type { TranslateResult } from '#types/seq2seq';
import { importWithStrings } from '../i18n';
import { Redraw } from '../redraw';
import { Announcer } from './announcer';
import { setRunning } from './keyboard';
import { parkingSlot } from './parked';
import { CHART_CSS } from '../charts/chart-css';

/** The model and its plain companion carry over a change of the page's language. */
const parked = parkingSlot<{ trainer: TranslateTrainer; plain: TranslateTrainer | null }>('translate');

class TranslateView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'translate-section');
  readonly #play: HTMLButtonElement;
  readonly #pause: HTMLButtonElement;
  readonly #stepButton: HTMLButtonElement;
  readonly #progress = el('progress');
  readonly #progressText = el('span', 'translate-progress-text');
  /** the time left to the end of the recipe at the speed measured over the current run */
  readonly #timeLeft = el('span', 'translate-progress-text translate-time-left');
  readonly #status = el('p', 'translate-status');
  /** says the run's start, progress (every few seconds), pause and end to a screen reader */
  readonly #announcer: Announcer;
  readonly #error = el('p', 'translate-error');
  readonly #intro = el('p', 'translate-intro');
  readonly #caption = el('p', 'translate-note translate-caption');
  /** the "Try this" prompts of the chosen task */
  readonly #try = el('div', 'translate-try');
  /** what the prompts and the score table's heading were last written for: a task, or zh-en 'compare' / 'single' */
  #taskShown = '';
  readonly #notice = new MessageLine('translate-notice');
  readonly #untrained = el('p', 'translate-untrained');
  /** which training step the decoding shown comes from (the model trains on while it is read) */
  readonly #decodedAtLine = el('p', 'translate-note translate-decoded-at');
  /** the training step of the model that decoded the translation shown; -1: none shown */
  #decodedAt = -1;
  /** translations asked of the worker and not yet answered */
  #inFlight = 0;
  readonly #sentenceAlignment = el('p', 'translate-note translate-sentence-alignment');
  readonly #compareHost = el('div', 'translate-compare');
  readonly #compareTitle = el('h3');
  readonly #compareEmpty = el('p', 'translate-note translate-compare-empty');
  /** loaded with the first evaluation (translate-compare.ts) */
  #compare: CompareView | null = null;
  #compareLoading: Promise<typeof import('./translate-compare')> | null = null;
  readonly #curves: TrainingCurves;
  readonly #input: SentenceInput;
  readonly #decode: DecodeView;
  /** the article's diagram (loaded on demand), and the translation it shows */
  #diagram: Seq2SeqDiagramLink | null = null;
  #shown: TranslateResult | null = null;
  /** the article's only (translate-article.ts): ask why, the timeline, bring your own; null in widgets */
  #extras: ArticleExtras | null = null;
  /** the model whose sentence #prepare has put in the box (the timeline records that sentence) */
  #prepared: TranslateTrainer | null = null;
  readonly #controls: TranslateControls;
  readonly #settingsPanel: Panel;
  readonly #unsubscribe: () => void;
  #trainer: TranslateTrainer;
  /** zh-en with attention: a plain Seq2Seq with the same settings, trained step for step beside it */
  #plain: TranslateTrainer | null = null;
  /** play / pause / step (translate-play.ts) */
  readonly #player: TranslatePlayer;
  #translateSeq = 0;
  #destroyed = false;
  /** the models were parked for the section in the other language: destroy() leaves them alive */
  #parked = false;
  /**
   * Renders in the next frame, once however often it is asked: a fast run finishes several
   * evaluations between two frames, and the player redraws at frame rate too.
   */
  readonly #renderLater = new Redraw(() => this.#render(), { frame: true });

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, css, CHART_CSS);
    this.#intro.dataset.testid = 'translate-intro';
    this.#caption.dataset.testid = 'translate-caption';
    this.#root.append(this.#intro, this.#caption, this.#try);

    // Training controls
    const run = el('div', 'al-controls translate-run');
    this.#player = new TranslatePlayer({
      trainer: () => this.#trainer,
      plain: () => this.#plain,
      speed: () => state.get('translate_speed'),
      t,
      evaluate: () => this.#evaluate(),
      translate: () => this.#translate(),
      redecode: () => this.#redecode(),
      render: () => this.#render(),
      showError: (text) => (this.#error.textContent = text),
    });
    this.#play = button(t('translate.play'), 'translate-play', () => this.#player.setPlaying(true));
    // Train is the section's one primary action.
    this.#play.classList.add('lab-button', 'primary');
    this.#pause = button(t('translate.pause'), 'translate-pause', () => this.#player.setPlaying(false));
    // Step stays focusable while a step runs (aria-disabled, not disabled: the focus would drop to the page)
    this.#stepButton = button(t('translate.step'), 'translate-step', () => {
      if (this.#stepButton.getAttribute('aria-disabled') !== 'true') void this.#player.stepOnce();
    });
    run.append(this.#play, this.#pause, this.#stepButton, button(t('translate.reset'), 'translate-reset', () => this.#reset()));
    this.#controls = new TranslateControls(ctx, (task) => this.#switchTask(task));
    this.#progress.dataset.testid = 'translate-progress';
    this.#progress.setAttribute('aria-label', t('translate.progressLabel'));
    const progress = el('div', 'translate-progress');
    this.#timeLeft.dataset.testid = 'translate-time-left';
    progress.append(this.#progress, this.#progressText, this.#timeLeft);

    // the model settings are an advanced part: a collapsed panel (open in the link: translate_open_settings)
    this.#settingsPanel = new Panel(state, 'translate_open_settings', t('translate.panel.settings'), 'translate-panel-settings');
    // how many steps each frame trains is a setting too (the run row keeps the buttons only)
    this.#controls.settings.prepend(this.#controls.speed);
    this.#settingsPanel.body.append(this.#controls.settings, this.#controls.scoreNote);
    const settings = this.#settingsPanel.element;
    run.hidden = settings.hidden = state.isHidden('controls');
    this.#error.dataset.testid = 'translate-error';
    this.#notice.element.dataset.testid = 'translate-notice';
    this.#curves = new TrainingCurves(t, 'translate', () => this.#trainer);
    this.#status.setAttribute('aria-live', 'polite');
    this.#announcer = new Announcer(ctx.lang);
    this.#root.append(run, settings, progress, this.#announcer.element, this.#status, this.#error, this.#notice.element, this.#curves.losses);

    this.#compareHost.dataset.testid = 'translate-compare';
    this.#compareHost.append(this.#compareTitle, this.#compareEmpty);
    this.#root.append(this.#compareHost);

    // The charts' empty state lives in the DOM around them (the charts draw only data).
    this.#root.append(this.#curves.empty, this.#curves.charts, this.#curves.menu);

    this.#input = new SentenceInput(this.#root, ctx);
    this.#untrained.textContent = t('translate.untrained');
    this.#untrained.dataset.testid = 'translate-untrained';
    this.#sentenceAlignment.dataset.testid = 'translate-sentence-alignment';
    // the sentence beside the article's picture of the model that reads it (stacked when narrow),
    // just above the decoding the picture follows step by step
    const beside = el('div', 'lab-beside');
    const main = el('div', 'lab-beside-main');
    this.#root.insertBefore(beside, this.#input.element);
    main.append(this.#input.element, this.#untrained);
    beside.append(main);
    this.#decode = new DecodeView(this.#root, t);
    this.#decodedAtLine.dataset.testid = 'translate-decoded-at';
    this.#decode.element.querySelector('h3')?.after(this.#decodedAtLine);
    if (!ctx.embedded) {
      void importWithStrings(() => import('../diagrams/seq2seq-link'), ctx.lang, { article: true }).then(({ Seq2SeqDiagramLink }) => {
        if (this.#destroyed) return;
        this.#diagram = new Seq2SeqDiagramLink(beside, null, t, ctx.lang, this.#decode.element);
        this.#diagram.setResult(this.#shown);
      });
    }
    const whyHost = el('div');
    this.#root.append(whyHost, this.#sentenceAlignment);
    if (!ctx.embedded) {
      void import('./translate-article').then(({ ArticleExtras }) => {
        if (this.#destroyed) return;
        this.#extras = new ArticleExtras(whyHost, this.#root, ctx, () => this.#trainer);
        // the model made before this code arrived records from its first step too, once #prepare
        // has put its sentence in the box (before then, #prepare starts the timeline itself)
        if (this.#trainer.step === 0) {
          if (this.#prepared === this.#trainer) void this.#extras.startTimeline(this.#trainer, this.#input.sourceText());
        } else this.#extras.refreshTimeline(this.#trainer); // an adopted model's frames so far
        void this.#translate();
      });
    }

    const adopted = parked.adopt(JSON.stringify(this.#settings()));
    this.#trainer = adopted?.trainer ?? this.#newTrainer();
    this.#plain = adopted ? adopted.plain : this.#newPlainTrainer();
    this.#unsubscribe = state.subscribe((changed) => this.#onState(changed));
    this.#syncControls();
    this.#render();
    void this.#prepare();
  }

  #settings() {
    const s = this.#ctx.state;
    return { task: s.get('translate_task'), cell: s.get('translate_cell'), hidden: s.get('translate_hidden'), score: s.get('translate_score'), lr: s.get('translate_lr'), seed: s.get('seed') };
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

  #syncControls(changed?: readonly PropName[]): void {
    this.#controls.sync(changed);
    this.#input.sync();
  }

  #onState(changed: readonly PropName[]): void {
    this.#syncControls(changed);
    this.#extras?.onState(changed);
    const setting = changed.find((n) => MODEL_SETTINGS.includes(n));
    if (setting) {
      const steps = this.#trainer.step;
      this.#reset();
      // Say so when the change threw a trained model away.
      if (steps > 0) {
        const { t } = this.#ctx;
        this.#notice.show('info', fill(t('translate.discarded'), { setting: t(SETTING_LABELS[setting] ?? 'translate.task'), steps }));
      }
    } else if (changed.includes('translate_text') || changed.includes('translate_beam')) {
      void this.#translate();
    }
  }

  /** A task switch by the reader also applies that task's recipe (cell, size, rate) and an example. */
  #switchTask(task: TaskName): void {
    const r = RECIPES[task];
    this.#input.forgetChoice();
    this.#ctx.state.update({ translate_task: task, translate_cell: r.cell, translate_hidden: r.hidden, translate_lr: r.lr, translate_text: SentenceInput.firstExample(task) });
  }

  async #prepare(): Promise<void> {
    const trainer = this.#trainer;
    this.#status.textContent = this.#ctx.t('translate.status.creating');
    try {
      await trainer.ready();
      // an adopted model (the page's language changed) may still record the last slice of its run
      await trainer.idle();
    } catch (err) {
      if (trainer === this.#trainer) this.#error.textContent = `${this.#ctx.t('error.prefix')}${errorText(err)}`;
      return;
    }
    if (trainer !== this.#trainer) return;
    this.#input.showVocabulary(trainer.vocabulary.source, trainer.info?.sourceTokenizer === 'chars');
    if (trainer.settings.task === 'zh-en') {
      // Held-out sentences to try, the longest first: the default sentence is a long one.
      const sentences = trainer.heldOut.map((e) => e.source).sort((a, b) => b.split(' ').length - a.split(' ').length);
      this.#input.setHeldOut(sentences.slice(0, 5));
    }
    this.#prepared = trainer;
    // the timeline records the sentence in the box, which for zh-en is the first held-out one (set
    // above); an adopted model (the page's language changed) keeps the timeline it has recorded
    if (trainer.step === 0) await this.#extras?.startTimeline(trainer, this.#input.sourceText());
    else this.#extras?.refreshTimeline(trainer);
    if (trainer !== this.#trainer) return;
    this.#render();
    // an adopted model paused mid-run by the switch: scored at the step it reached
    if (trainer.step > 0) void this.#evaluate();
    await this.#translate();
  }

  #reset(): void {
    this.#player.setPlaying(false);
    void this.#trainer.delete();
    void this.#plain?.delete();
    this.#trainer = this.#newTrainer();
    this.#plain = this.#newPlainTrainer();
    this.#error.textContent = '';
    this.#notice.show('info', '');
    this.#input.showError('');
    this.#clearDecoding();
    this.#showInDiagram(null);
    this.#render();
    void this.#prepare();
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
      this.#renderLater.request();
      this.#extras?.refreshTimeline(trainer);
    }
  }

  /** While training: decodes again, unless a decoding is on its way or the reader is going through this one. */
  #redecode(): void {
    if (this.#inFlight > 0 || this.#decode.browsing || this.#destroyed) return;
    void this.#translate(true);
  }

  /** `waiting`: why there is no decoding, for its progress line (the decoder's default: no model yet). */
  #clearDecoding(waiting?: string): void {
    this.#decode.clear(waiting);
    this.#decodedAt = -1;
    this.#renderDecodedAt();
  }

  /**
   * Translates the current sentence with the model as it is now and shows its decoding. `live`: a
   * redecode while training, which leaves the "ask why" panel (and what the reader did there) alone.
   */
  async #translate(live = false): Promise<void> {
    const trainer = this.#trainer;
    const model = trainer.model;
    if (!model || this.#destroyed) return;
    const seq = ++this.#translateSeq;
    const beam = this.#ctx.state.get('translate_beam');
    const { t } = this.#ctx;
    const text = this.#input.sourceText();
    const chars = trainer.info?.sourceTokenizer === 'chars';
    this.#sentenceAlignment.textContent = '';
    if (text.trim() === '') {
      // Nothing to translate: no old result stays on screen.
      this.#clearDecoding('translate.decode.noSentence');
      this.#showInDiagram(null);
      this.#extras?.clear();
      this.#decode.element.dataset.modelStep = String(trainer.step);
      this.#input.showNote('info', t(trainer.settings.task === 'dates' ? 'translate.empty.dates' : 'translate.empty'));
      return;
    }
    try {
      let result: TranslateResult;
      this.#inFlight++;
      try {
        result = await model.translate(text, beam > 1 ? { beam, topK: 5 } : { topK: 5 });
      } finally {
        this.#inFlight--;
      }
      if (seq !== this.#translateSeq || trainer !== this.#trainer) return;
      this.#input.showError('');
      this.#input.showUnknown(result.source.filter((s) => s.unknown).map((s) => s.text), text, chars, trainer.vocabulary.source);
      // Which model state this decoding shows (tests wait for it).
      this.#decode.element.dataset.modelStep = String(trainer.step);
      this.#decode.show(result, trainer.info?.targetTokenizer ?? 'words', trainer.settings.score !== 'none');
      // the worker answers after the training slices before the request: the step is the decoding's
      this.#decodedAt = trainer.step;
      this.#renderDecodedAt();
      this.#showInDiagram(result);
      if (!live) this.#extras?.show(trainer, text, result);
      const example = trainer.heldOut.find((e) => e.source === text.trim().split(/\s+/u).join(' '));
      const compare = trainer.step > 0 ? await this.#compareModule() : null;
      if (seq !== this.#translateSeq || trainer !== this.#trainer) return;
      const aligned = compare ? compare.sentenceAlignment(result, example) : null;
      this.#sentenceAlignment.textContent = compare ? compare.alignmentReadout(aligned, this.#ctx.lang) : '';
      this.#sentenceAlignment.dataset.hits = aligned ? String(aligned.hits) : '';
      this.#sentenceAlignment.dataset.scored = aligned ? String(aligned.scored) : '';
    } catch (err) {
      if (seq !== this.#translateSeq) return;
      const tooLong = sentenceTooLongText(this.#ctx.lang, err, trainer.info?.sourceTokenizer);
      this.#refuseSentence(tooLong !== null ? namedFieldMessage(t, t('translate.sentence'), tooLong) : `${t('error.prefix')}${errorText(err)}`);
    }
  }

  /** A sentence the model cannot take: the old result cleared, and why. */
  #refuseSentence(message: string): void {
    this.#clearDecoding('translate.decode.noSentence');
    this.#showInDiagram(null);
    this.#extras?.clear();
    this.#input.showNote('info', '');
    this.#input.showError(message);
  }

  #showInDiagram(result: TranslateResult | null): void {
    this.#shown = result;
    this.#diagram?.setResult(result);
  }

  /** The intro in the words of the chosen task, with the settings actually in use. */
  #renderIntro(): void {
    const { t, state } = this.#ctx;
    const task = state.get('translate_task');
    setText(this.#intro, introText(t, this.#settings(), this.#trainer.info, this.#trainer.recipeSteps));
    setText(this.#caption, task === 'note' ? t('translate.caption.note') : '');
    this.#caption.hidden = task !== 'note';
    // the prompts and the score table's heading follow the task (redrawn only when it changes)
    const kind = task !== 'zh-en' ? task : this.#plain ? 'compare' : 'single';
    if (kind !== this.#taskShown) {
      this.#taskShown = kind;
      const prompts = tryPrompts(t, task);
      this.#try.replaceChildren(...(prompts.length ? [tryThis(t('try.title'), prompts)] : []));
      this.#compareTitle.textContent = t(kind === 'compare' ? 'translate.compare.title' : `translate.compare.title.${kind}`);
      this.#compareEmpty.textContent = t(kind === 'compare' ? 'translate.compare.empty' : `translate.compare.empty.${kind}`);
    }
  }

  #render(): void {
    const { t } = this.#ctx;
    const trainer = this.#trainer;
    const { step, recipeSteps } = trainer;
    const playing = this.#player.playing;
    setRunning(playing, this.#play, this.#pause);
    this.#stepButton.setAttribute('aria-disabled', String(this.#player.busy));
    this.#progress.max = recipeSteps;
    this.#progress.value = Math.min(step, recipeSteps);
    setText(this.#progressText, fill(t(step > recipeSteps || (step === recipeSteps && step > 0) ? 'translate.progress.beyond' : 'translate.progress'), { step, total: recipeSteps }));
    setText(this.#timeLeft, this.#player.timeLeft(step, recipeSteps));
    const phase = playing ? 'training' : step === 0 ? 'idle' : step === recipeSteps ? 'done' : 'paused';
    this.#announcer.track(phase, [this.#progressText.textContent, this.#timeLeft.textContent]);
    const info = trainer.info;
    if (info) {
      const attention = info.attention ? fill(t('translate.attention.score'), { score: t(`translate.score.${info.score}`) }) : t('translate.attention.none');
      setText(this.#status, fill(t('translate.status.ready'), { params: info.parameterCount.toLocaleString('en-US'), cell: info.cell.toUpperCase(), hidden: info.hidden, attention }));
    }
    this.#renderIntro();
    this.#renderDecodedAt();
    // a message about the model before (the trained steps a change discarded) goes when this one trains
    if (step > 0 && this.#notice.element.textContent) this.#notice.show('info', '');
    const score = trainer.settings.score;
    const rows: CompareRow[] = [
      { id: score === 'none' ? 'plain' : 'attention', score, scoreLabel: t(`translate.score.${score}`), step: trainer.evaluatedAt, evaluation: trainer.evaluation, trainMs: trainer.trainMs },
    ];
    const plain = this.#plain;
    if (plain) rows.push({ id: 'plain', score, step: plain.evaluatedAt, evaluation: plain.evaluation, trainMs: plain.trainMs });
    this.#renderCompare(rows, trainer.info?.sourceTokenizer === 'chars');
    this.#root.dataset.step = String(step);
    this.#root.dataset.playing = this.#player.playing ? '1' : '0';
    this.#curves.update(trainer.settings.task === 'note' ? 20 : 10);
  }

  #renderDecodedAt(): void {
    const at = this.#decodedAt;
    const line = this.#decodedAtLine;
    line.hidden = at <= 0;
    line.dataset.step = String(at);
    setText(line, at > 0 ? fill(this.#ctx.t(this.#player.playing ? 'translate.decodedAt.live' : 'translate.decodedAt'), { step: at }) : '');
    // the untrained warning stays while the decoding shown is the untrained model's
    this.#untrained.hidden = (at >= 0 ? at : this.#trainer.step) > 0;
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
    this.#player.setActive(active);
  }

  onWorkerRestart(): void {
    this.#reset();
  }

  park(): void {
    this.#player.destroy(); // a run pauses; the reader plays on in the other language
    const pair = { trainer: this.#trainer, plain: this.#plain };
    parked.park(JSON.stringify(pair.trainer.settings), pair, (p) => {
      void p.trainer.delete();
      void p.plain?.delete();
    });
    this.#parked = true;
  }

  destroy(): void {
    this.#destroyed = true;
    this.#renderLater.stop();
    this.#compare?.destroy();
    this.#player.destroy();
    this.#announcer.destroy();
    this.#unsubscribe();
    this.#settingsPanel.destroy();
    this.#input.destroy();
    if (!this.#parked) {
      void this.#trainer.delete();
      void this.#plain?.delete();
    }
    this.#decode.destroy();
    this.#diagram?.destroy();
    this.#extras?.destroy();
    this.#curves.destroy();
    this.#root.remove();
  }
}

export const translateSection: SectionModule = {
  id: 'translate',
  strings: TRANSLATE_STRINGS,
  mount: (host, ctx) => new TranslateView(host, ctx),
};
