// §4 The Transformer: an encoder-decoder Transformer trained live in the worker (dates by default,
// the grammar corpus as the other task), every layer's and head's attention of all three kinds
// drawn as a layer × head grid of small maps on one colour scale (click one to enlarge it), a
// translation decoded step by step with the source lit by the attention the reader picks (one
// head, a layer's mean, or the rollout), and a comparison with §3.3's recurrent models measured
// live. Settings live in the transformer_* rows of the state table.
import type { ByoPanels } from './translate-byo';
import type { LazyWhyView } from './translate-why-lazy';
import { HEATMAP_CSS } from '../heatmap/heatmap';
import { fill, importWithStrings } from '../i18n';
import type { TransformerTranslateResult, TranslateResult } from '#types/seq2seq';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import { button, el, errorText, MessageLine, mountRoot, namedFieldMessage, narration, primaryButton, refusedFieldsMessage, setText, tryThis } from './dom';
import { TrainingCurves } from './translate-charts';
import css from './transformer.css?inline';
import { ComparePanel } from './transformer-compare';
import { MODEL_SETTING_LABELS, TransformerControls } from './transformer-controls';
import { TransformerDecodeView, unknownList } from './transformer-decode';
import { AttentionGrids } from './transformer-grids';
import { attentionMaps } from './transformer-maps';
import { TRANSFORMER_BATCH, type TransformerSettings } from './transformer-recipes';
import { TRANSFORMER_STRINGS } from './transformer-strings';
import { TransformerDivergedError, TransformerTrainer } from './transformer-train';
import { parkingSlot } from './parked';
import { TransformerSentence } from './transformer-sentence';
import { sentenceTooLongText } from './sentence-error';
import { mountTransformerWhy } from './transformer-why';
import { TrainingClock, type RunPlan } from './transformer-clock';
import { Panel, type PanelSetting } from './panel';
import type { TransformerDiagramLink } from '../diagrams/transformer-link';
import { Announcer } from './announcer';
import { setRunning } from './keyboard';
import { CHART_CSS } from '../charts/chart-css';

/** The trained Transformer carries over a change of the page's language, with its run's target and the reader's answer to a long run. */
const parked = parkingSlot<{ trainer: TransformerTrainer; plan: RunPlan | null }>('transformer');

const MODEL_SETTINGS = Object.keys(MODEL_SETTING_LABELS) as PropName[];
/** While training, the maps are redrawn from a fresh translation at most this often. */
const RETRANSLATE_MS = 1000;
/** The error line's tag for why Train started nothing (refused settings). */
const REFUSED = 'refused';

class TransformerView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'transformer-section');
  readonly #train: HTMLButtonElement;
  readonly #pause: HTMLButtonElement;
  readonly #controls: TransformerControls;
  readonly #progress = el('progress');
  readonly #progressText = el('span', 'transformer-progress-text');
  readonly #clock: TrainingClock;
  readonly #settingsLine = el('p', 'transformer-note transformer-settings-line');
  readonly #status = el('p', 'transformer-status');
  /** says the run's start, progress (every few seconds), pause and end to a screen reader */
  readonly #announcer: Announcer;
  /** errors; why Train started nothing is taken back by the next Train that starts */
  readonly #error = new MessageLine('transformer-error');
  readonly #notice = new MessageLine('transformer-notice');
  /** "… trained steps were discarded": said until the new model trains (then it is old news) */
  #discarded = '';
  readonly #narration = narration('transformer-narration');
  /** the narration of a run's end ("Trained to step N: …"): dropped when the next run starts, as it then describes a step long gone */
  #trainedNarration = '';
  /** the model whose run's end is being scored: the status says so, not "not scored yet" */
  #scoring: TransformerTrainer | null = null;
  readonly #untrained = el('p', 'transformer-untrained');
  readonly #curves: TrainingCurves;
  readonly #sentence: TransformerSentence;
  readonly #grids: AttentionGrids;
  readonly #decode: TransformerDecodeView;
  readonly #compare: ComparePanel;
  /** the article's diagram and positions figure (loaded on demand) */
  #architecture: TransformerDiagramLink | null = null;
  readonly #unsubscribe: () => void;
  #trainer: TransformerTrainer;
  /** the last model that was made, kept while a replacement is being made */
  #good: TransformerTrainer | null = null;
  #translateSeq = 0;
  #lastTranslate = 0;
  #destroyed = false;
  /** the model parked for the section in the other language (park()): destroy() leaves it alive */
  #parked: TransformerTrainer | null = null;
  /** model files in and out (translate-byo.ts), loaded on demand in the article only */
  #byo: ByoPanels | null = null;
  /** ask the model why (translate-why.ts): the article only, loaded on demand */
  #why: LazyWhyView | null = null;
  #whyPanel: Panel | null = null;
  /** the collapsed panels (sections/panel.ts) */
  readonly #panels: Panel[] = [];

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, css, CHART_CSS);
    const intro = el('p', 'transformer-intro', t('transformer.intro'));
    intro.dataset.testid = 'transformer-intro';
    this.#settingsLine.dataset.testid = 'transformer-settings-line';
    this.#root.append(intro, this.#settingsLine, tryThis(t('try.title'), [t('transformer.try.1'), t('transformer.try.2'), t('transformer.try.3'), t('transformer.try.4')]));

    // One primary action: Train. Pause and Reset beside it, then the settings.
    const run = el('div', 'al-controls transformer-run');
    this.#train = primaryButton(t('transformer.train'), 'transformer-train', () => {
      const refused = refusedFieldsMessage(t, this.#controls.element);
      if (refused !== null) return this.#error.show('error', refused, REFUSED);
      this.#error.clear(REFUSED);
      this.#clock.start();
    });
    this.#pause = button(t('transformer.pause'), 'transformer-pause', () => this.#clock.stop());
    run.append(this.#train, this.#pause, button(t('transformer.reset'), 'transformer-reset', () => this.#rebuild(null)));
    run.hidden = state.isHidden('controls');
    this.#controls = new TransformerControls(t, state, (name, value) => {
      this.#narration.textContent = fill(t('transformer.narrate.setting'), { setting: t(MODEL_SETTING_LABELS[name] ?? 'transformer.steps'), value });
    });
    this.#progress.dataset.testid = 'transformer-progress';
    this.#progress.setAttribute('aria-label', t('transformer.progressLabel'));
    const progress = el('div', 'transformer-progress');
    progress.append(this.#progress, this.#progressText);
    this.#clock = new TrainingClock(ctx, {
      trainer: () => this.#trainer,
      onProgress: () => this.#onProgress(),
      onEnd: (err) => void this.#onRunEnd(err),
      onRender: () => this.#render(),
    });
    progress.append(this.#clock.eta);
    this.#status.dataset.testid = 'transformer-status';
    this.#status.setAttribute('aria-live', 'polite');
    this.#announcer = new Announcer(ctx.lang);
    this.#error.element.dataset.testid = 'transformer-error';
    this.#notice.element.dataset.testid = 'transformer-notice';
    // the model settings are an advanced part: a collapsed panel (open in the link: transformer_open_settings)
    const settingsPanel = this.#panel('transformer_open_settings', 'transformer.panel.settings', 'transformer-panel-settings');
    settingsPanel.body.append(this.#controls.element);
    settingsPanel.element.hidden = state.isHidden('controls');
    this.#root.append(run, settingsPanel.element, progress, this.#clock.estimate, this.#clock.confirm, this.#announcer.element, this.#narration, this.#status, this.#error.element, this.#notice.element);

    // Training curves (their empty state in the DOM around them).
    this.#untrained.textContent = t('transformer.untrained');
    this.#untrained.dataset.testid = 'transformer-untrained';
    this.#curves = new TrainingCurves(t, 'transformer', () => this.#trainer);
    const curves = this.#curves;
    this.#root.append(this.#untrained, curves.empty, curves.charts, curves.menu, curves.losses);

    // The sentence, with examples.
    // (beside the picture of the model when there is room: the architecture below)
    const beside = el('div', 'lab-beside');
    const main = el('div', 'lab-beside-main');
    beside.append(main);
    this.#root.append(beside);
    this.#sentence = new TransformerSentence(main, ctx);

    // The three grids on one colour scale, and the enlarged map.
    // a row of the enlarged decoder or cross map is an output step: the decoding below follows it,
    // and a cross map's chosen cell lights the source by that map's head
    this.#grids = new AttentionGrids(
      this.#root,
      t,
      state,
      (text) => (this.#narration.textContent = text),
      (kind, layer, head, event) => {
        if (kind === 'encoder') return;
        this.#decode.follow(event);
        if (kind === 'cross' && event.kind === 'select') state.update({ transformer_light_layer: layer, transformer_light_head: head });
      },
    );

    this.#decode = new TransformerDecodeView(this.#root, t, (l, h) => {
      const what = l === 0 ? t('transformer.light.rollout') : h === 0 ? fill(t('transformer.light.mean'), { l }) : fill(t('transformer.light.head'), { l, h });
      this.#narration.textContent = fill(t('transformer.narrate.light'), { what });
      state.update({ transformer_light_layer: l, transformer_light_head: h });
    });

    // The article's picture of the model above the maps it explains; the positions figure in a panel
    // under it (the diagram's embeddings part opens it).
    if (!ctx.embedded) {
      const positionsPanel = this.#panel('transformer_open_positions', 'transformer.panel.positions', 'transformer-panel-positions');
      void importWithStrings(() => import('../diagrams/transformer-link'), ctx.lang, { article: true }).then(({ TransformerDiagramLink }) => {
        if (this.#destroyed) return;
        const architecture = new TransformerDiagramLink(t, ctx.lang, state, this.#root, {
          openSettings: () => settingsPanel.show(),
          openPositions: () => positionsPanel.show(),
        });
        this.#architecture = architecture;
        positionsPanel.body.append(architecture.positions);
        beside.append(architecture.element);
        beside.after(positionsPanel.element);
        architecture.linkViews(this.#root);
      });
    }

    // Ask the model why (transformer-why.ts): the article only, loaded when its panel first opens.
    if (!ctx.embedded) {
      const whyPanel = this.#panel('transformer_open_why', 'transformer.panel.why', 'transformer-panel-why');
      this.#whyPanel = whyPanel;
      this.#root.append(whyPanel.element);
      if (state.get('transformer_why') !== '') whyPanel.show();
    }
    mountTransformerWhy(this.#whyPanel?.body ?? this.#root, ctx, this.#whyPanel?.opened ?? Promise.resolve(), (view) => {
      if (this.#destroyed) return view.destroy();
      this.#why = view;
      void this.#translate(false);
    });

    // The comparison with §3.3's models, measured on request.
    const comparePanel = this.#panel('transformer_open_compare', 'transformer.panel.compare', 'transformer-panel-compare');
    this.#root.append(comparePanel.element);
    this.#compare = new ComparePanel(comparePanel.body, t, ctx.lab, () => this.#clock.stop());

    const adopted = parked.adopt(JSON.stringify(this.#settings()));
    this.#trainer = adopted?.trainer ?? new TransformerTrainer(ctx.lab, this.#settings());
    if (adopted?.plan) this.#clock.adopt(adopted.trainer, adopted.plan);
    // Model files in and out, as in §3.3 (the article only: loaded on demand, not in widgets).
    if (!ctx.embedded) {
      const byoHost = el('div', 'transformer-byo');
      const filesPanel = this.#panel('transformer_open_files', 'transformer.panel.files', 'transformer-panel-files');
      filesPanel.body.append(byoHost);
      this.#root.append(filesPanel.element);
      // its labels are §3.3's, whose strings arrive with this code
      void filesPanel.opened
        .then(() => importWithStrings(() => import('./translate-byo'), ctx.lang, { article: true }))
        .then(({ mountByo }) => {
          if (this.#destroyed) return;
          this.#byo = mountByo({ files: byoHost }, this.#root, ctx, () => (this.#trainer.step > 0 ? this.#trainer.model : null), {
            prefix: 'transformer',
            baseName: () => `attention-lab-transformer-${this.#trainer.settings.task}`,
          });
        });
    }
    this.#unsubscribe = state.subscribe((changed) => this.#onState(changed));
    this.#controls.sync();
    this.#render();
    void this.#prepare(this.#trainer, null);
  }

  #panel(name: PanelSetting, key: string, testId: string): Panel {
    const panel = new Panel(this.#ctx.state, name, this.#ctx.t(key), testId);
    this.#panels.push(panel);
    return panel;
  }

  #settings(): TransformerSettings {
    const s = this.#ctx.state;
    return {
      task: s.get('transformer_task'),
      layers: s.get('transformer_layers'),
      heads: s.get('transformer_heads'),
      dModel: s.get('transformer_dmodel'),
      dFF: s.get('transformer_dff'),
      normFirst: s.get('transformer_norm_first'),
      lr: s.get('transformer_lr'),
      warmup: s.get('transformer_warmup'),
      seed: s.get('seed'),
    };
  }

  #onState(changed: readonly PropName[]): void {
    this.#controls.sync(changed);
    const { state } = this.#ctx;
    this.#sentence.sync();
    const setting = changed.find((n) => MODEL_SETTINGS.includes(n));
    const s = this.#settings();
    const same = (Object.keys(s) as (keyof TransformerSettings)[]).every((k) => s[k] === this.#trainer.settings[k]);
    // a new sentence: the interventions were about the old one's steps and tokens
    if (changed.includes('transformer_text') && !changed.includes('transformer_why')) state.set('transformer_why', '');
    else if (changed.includes('transformer_why')) {
      if (state.get('transformer_why') !== '') this.#whyPanel?.show();
      this.#why?.linkChanged();
    }
    if (setting && !same) this.#rebuild(setting);
    else if (changed.includes('transformer_text')) void this.#translate();
    if (changed.some((n) => n.startsWith('transformer_zoom'))) this.#grids.render();
    if (changed.some((n) => n.startsWith('transformer_light'))) this.#syncLight();
    if (changed.includes('transformer_steps')) this.#render();
  }

  /** A new model with the state's settings (a reset: `setting` null). The old one is kept if the core refuses the new one. */
  #rebuild(setting: PropName | null): void {
    this.#clock.stop();
    const previous = this.#trainer;
    // the model to fall back on: the last one that was made (one still being made is dropped)
    const old = previous.model ? previous : this.#good;
    if (previous !== old) void previous.delete();
    const next = new TransformerTrainer(this.#ctx.lab, this.#settings());
    this.#trainer = next;
    void this.#prepare(next, old ? { old, setting } : null);
  }

  /** `change`: the model this one replaces and the setting that caused it (null: a reset) */
  async #prepare(trainer: TransformerTrainer, change: { old: TransformerTrainer; setting: PropName | null } | null): Promise<void> {
    const { t } = this.#ctx;
    this.#status.textContent = t('transformer.status.creating');
    try {
      await trainer.ready();
      // an adopted model (the page's language changed) may still record the last slice of its run
      await trainer.idle();
    } catch (err) {
      if (trainer !== this.#trainer) return;
      const reason = errorText(err);
      const field = change?.setting ?? null;
      const label = field ? t(MODEL_SETTING_LABELS[field] ?? 'transformer.task') : '';
      if (change && change.setting && change.old.model) {
        // the core refused these settings: say so under the field, keep (and show) the last good model
        this.#controls.showError(field, namedFieldMessage(t, label, fill(t('transformer.error.create'), { reason })));
        this.#trainer = change.old;
        this.#compare.setTrainer(change.old);
        const o = change.old.settings;
        this.#ctx.state.update({ transformer_task: o.task, transformer_layers: o.layers, transformer_heads: o.heads, transformer_dmodel: o.dModel, transformer_dff: o.dFF, transformer_norm_first: o.normFirst, transformer_lr: o.lr, transformer_warmup: o.warmup, seed: o.seed });
        this.#render();
        return;
      }
      if (field) this.#controls.showError(field, namedFieldMessage(t, label, reason));
      this.#error.show('error', `${t('error.prefix')}${field ? `${label}: ` : ''}${reason}`);
      this.#render();
      return;
    }
    if (trainer !== this.#trainer) return;
    for (const name of MODEL_SETTINGS) this.#controls.showError(name, null);
    this.#error.clear();
    if (change) {
      const steps = change.old.step;
      if (change.old === this.#good) this.#good = null;
      void change.old.delete();
      this.#discarded = steps > 0 && change.setting ? fill(t('transformer.discarded'), { setting: t(MODEL_SETTING_LABELS[change.setting] ?? 'transformer.task'), steps }) : '';
      this.#notice.show('info', this.#discarded);
    }
    this.#good = trainer;
    this.#compare.setTrainer(trainer);
    this.#sentence.showExamples(trainer.settings.task);
    this.#syncLight();
    this.#render();
    // an adopted model paused mid-run by the switch: scored at the step it reached, as at a run's end
    if (trainer.step > 0 && trainer.evaluatedAt !== trainer.step) return this.#onRunEnd(null);
    await this.#translate();
  }

  #onProgress(): void {
    // the maps follow the training: a fresh translation about once a second
    const now = performance.now();
    if (now - this.#lastTranslate > RETRANSLATE_MS) {
      this.#lastTranslate = now;
      void this.#translate(false);
    }
  }

  async #onRunEnd(err: unknown): Promise<void> {
    const { t } = this.#ctx;
    const trainer = this.#trainer;
    if (err) {
      const text = err instanceof TransformerDivergedError ? `${t('transformer.diverged')} (${err.message})` : errorText(err);
      this.#error.show('error', `${t('error.prefix')}${text}`);
    }
    if (trainer.step > 0) {
      this.#scoring = trainer;
      this.#render();
      try {
        await trainer.evaluate();
        // the score itself is the status line's: the narration says where the run ended
        if (trainer === this.#trainer) {
          this.#trainedNarration = fill(t('transformer.narrate.trained'), { step: trainer.step });
          this.#narration.textContent = this.#trainedNarration;
        }
      } catch (e2) {
        if (trainer === this.#trainer) this.#error.show('error', `${t('error.prefix')}${errorText(e2)}`);
      } finally {
        if (this.#scoring === trainer) this.#scoring = null;
      }
    }
    if (trainer !== this.#trainer) return;
    this.#render();
    await this.#translate();
  }

  /** Translates the sentence with the model as it is now; redraws the grids and (with `play`) shows the new decoding. */
  async #translate(play = true): Promise<void> {
    const trainer = this.#trainer;
    if (!trainer.model || this.#destroyed) return;
    const { t } = this.#ctx;
    const seq = ++this.#translateSeq;
    const text = this.#ctx.state.get('transformer_text');
    if (text.trim() === '') {
      this.#showResult(null);
      this.#sentence.askFor(trainer.settings.task);
      return;
    }
    this.#sentence.askFor(null);
    try {
      // five candidates a step: the ask-why panel offers them
      const result = await trainer.translate(text, { topK: 5 });
      if (seq !== this.#translateSeq || trainer !== this.#trainer) return;
      this.#sentence.showError(null);
      // the unknown words of the last input go with it
      if (trainer.step > 0) this.#discarded = '';
      const unknown = unknownList(t, result.source);
      this.#notice.show('info', unknown ? fill(t('transformer.unknownWords'), { words: unknown }) : this.#discarded);
      this.#showResult(result);
      this.#root.dataset.translatedAt = String(trainer.step);
      // a redraw while training leaves the decoding the reader is stepping, unless it has none yet
      if (play || !this.#decode.loaded) {
        this.#decode.show(result, trainer.info?.sourceTokenizer === 'chars');
        // the step of the model whose decoding the view shows: a redraw while training keeps an
        // older one, so translatedAt alone does not say that the finished run's decoding is there
        this.#root.dataset.decodedAt = String(trainer.step);
      }
      // the panel follows the finished runs, not the redraws while training
      if (trainer.model && (play || !this.#clock.running)) {
        const s = trainer.settings;
        this.#why?.show(trainer.model, text, result as unknown as TranslateResult, trainer.info?.targetTokenizer ?? 'chars', true, { layers: s.layers, heads: s.heads });
        // the step of the model the panel explains (a redraw while training translates without it)
        this.#root.dataset.explainedAt = String(trainer.step);
      }
    } catch (err) {
      if (seq !== this.#translateSeq) return;
      // a sentence the model cannot take (longer than the positional table, say): named, model kept
      this.#sentence.showError(sentenceTooLongText(this.#ctx.lang, err, this.#trainer.info?.sourceTokenizer) ?? errorText(err));
      this.#showResult(null);
    }
  }

  #showResult(result: TransformerTranslateResult | null): void {
    if (!result) {
      this.#decode.clear();
      this.#why?.clear();
    }
    this.#grids.show(result ? attentionMaps(result, this.#ctx.t) : null);
  }

  #syncLight(): void {
    const { state } = this.#ctx;
    const s = this.#trainer.settings;
    this.#decode.setLight(s.layers, s.heads, state.get('transformer_light_layer'), state.get('transformer_light_head'));
  }

  #render(): void {
    const { t, state } = this.#ctx;
    const trainer = this.#trainer;
    const s = trainer.settings;
    const step = trainer.step;
    const target = this.#clock.target();
    const running = this.#clock.running;
    setRunning(running, this.#train, this.#pause);
    if (running && this.#trainedNarration !== '' && this.#narration.textContent === this.#trainedNarration) this.#narration.textContent = '';
    this.#progress.max = target;
    this.#progress.value = Math.min(step, target);
    setText(this.#progressText, fill(t('transformer.progress'), { step, total: target }));
    setText(this.#settingsLine, fill(t('transformer.intro.settings'), {
      task: t(`transformer.task.${s.task}`),
      layers: s.layers,
      heads: s.heads,
      dModel: s.dModel,
      dFF: s.dFF,
      norm: t(s.normFirst ? 'transformer.norm.pre' : 'transformer.norm.post'),
      lr: s.lr,
      warmup: s.warmup,
      batch: TRANSFORMER_BATCH,
      steps: state.get('transformer_steps'),
    }));
    const info = trainer.info;
    if (info) {
      const exact =
        this.#scoring === trainer && trainer.evaluatedAt !== step
          ? t('transformer.status.scoring')
          : trainer.evaluation
            ? fill(t('transformer.status.at'), { exact: `${(100 * trainer.evaluation.exactMatch).toFixed(1)}%`, step: trainer.evaluatedAt })
            : t('transformer.status.notScored');
      setText(this.#status, fill(t('transformer.status.ready'), { params: info.parameterCount.toLocaleString('en-US'), exact }));
      this.#status.dataset.params = String(info.parameterCount);
      this.#status.dataset.evaluatedAt = String(trainer.evaluation ? trainer.evaluatedAt : -1);
    }
    this.#clock.render();
    const phase = running ? 'training' : step === 0 ? 'idle' : step >= target ? 'done' : 'paused';
    this.#announcer.track(phase, [this.#progressText.textContent, this.#clock.eta.textContent]);
    this.#untrained.hidden = step > 0;
    this.#root.dataset.step = String(step);
    this.#root.dataset.playing = this.#clock.running ? '1' : '0';
    this.#curves.update(20);
  }

  setActive(active: boolean): void {
    this.#clock.setActive(active);
  }

  onWorkerRestart(): void {
    this.#rebuild(null);
  }

  park(): void {
    this.#clock.stop(); // a run pauses; the reader trains on in the other language
    // the model on screen, or the last good one while a replacement is still being made
    const kept = this.#trainer.model || !this.#good ? this.#trainer : this.#good;
    parked.park(JSON.stringify(kept.settings), { trainer: kept, plan: this.#clock.plan(kept) }, (p) => void p.trainer.delete());
    this.#parked = kept;
  }

  destroy(): void {
    this.#destroyed = true;
    this.#clock.destroy();
    this.#announcer.destroy();
    this.#unsubscribe();
    for (const trainer of new Set([this.#trainer, this.#good])) if (trainer && trainer !== this.#parked) void trainer.delete();
    this.#sentence.destroy();
    this.#decode.destroy();
    this.#grids.destroy();
    this.#compare.destroy();
    this.#byo?.destroy();
    this.#why?.destroy();
    for (const panel of this.#panels) panel.destroy();
    this.#architecture?.destroy();
    this.#curves.destroy();
    this.#root.remove();
  }
}

export const transformerSection: SectionModule = {
  id: 'transformer',
  strings: TRANSFORMER_STRINGS,
  mount: (host, ctx) => new TransformerView(host, ctx),
};
