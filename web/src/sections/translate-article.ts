// What §3.3 has in the article and not in its widget: the "ask the model why" panel (its
// interventions in the link, translate_why), the training timeline of the probe sentence, and bring your
// own (downloads, own pairs, model files). Each part's code loads on demand, so a widget page never
// fetches it (the widgets' seq2seq module has none of asking why either).
import type { TranslateResult } from '#types/seq2seq';
import type { SectionContext } from '../section';
import type { PropName } from '../state';
import type { ByoPanels } from './translate-byo';
import type { TimelineView } from './translate-timeline';
import type { TranslateTrainer } from './translate-train';
import { el } from './dom';
import { Panel } from './panel';
import { LazyWhyView } from './translate-why-lazy';

/** Frames the timeline keeps at most (the core thins them evenly when full). */
const TIMELINE_CAPACITY = 100;
/** Frames over the recipe's steps (one every recipe / this many steps). */
const TIMELINE_FRAMES = 50;

export class ArticleExtras {
  readonly #ctx: SectionContext;
  readonly #why: LazyWhyView;
  /** collapsed panels, each rendering its content when first opened */
  readonly #whyPanel: Panel;
  readonly #timelinePanel: Panel;
  readonly #pairsPanel: Panel;
  readonly #filesPanel: Panel;
  readonly #timelineHost = el('div', 'translate-timeline-host');
  #timeline: TimelineView | null = null;
  #byo: ByoPanels | null = null;
  #dead = false;

  /** `whyHost`: under the decoding view; `host`: the section's end; `trainer`: the current model */
  constructor(whyHost: HTMLElement, host: HTMLElement, ctx: SectionContext, trainer: () => TranslateTrainer) {
    this.#ctx = ctx;
    const { state, t } = ctx;
    this.#whyPanel = new Panel(state, 'translate_open_why', t('translate.panel.why'), 'translate-panel-why');
    whyHost.append(this.#whyPanel.element);
    // a link with interventions is about the panel: it opens
    if (state.get('translate_why') !== '') this.#whyPanel.show();
    this.#why = new LazyWhyView(
      this.#whyPanel.body,
      ctx,
      { prefix: 'translate', link: { name: 'translate_why', get: () => state.get('translate_why'), set: (text) => state.set('translate_why', text) } },
      this.#whyPanel.opened,
    );
    this.#timelinePanel = new Panel(state, 'translate_open_timeline', t('translate.panel.timeline'), 'translate-panel-timeline');
    this.#timelinePanel.body.append(this.#timelineHost);
    host.append(this.#timelinePanel.element);
    void this.#timelinePanel.opened
      .then(() => import('./translate-timeline'))
      .then(({ TimelineView }) => {
        if (this.#dead) return;
        this.#timeline = new TimelineView(this.#timelineHost, ctx);
        const model = trainer().model;
        if (model && trainer().step > 0) void this.#timeline.refresh(model);
      });
    this.#pairsPanel = new Panel(state, 'translate_open_pairs', t('translate.panel.pairs'), 'translate-panel-pairs');
    this.#filesPanel = new Panel(state, 'translate_open_files', t('translate.panel.files'), 'translate-panel-files');
    if (state.get('translate_pairs') !== '') this.#pairsPanel.show();
    const pairsHost = el('div', 'translate-byo');
    const filesHost = el('div', 'translate-byo');
    this.#pairsPanel.body.append(pairsHost);
    this.#filesPanel.body.append(filesHost);
    host.append(this.#pairsPanel.element, this.#filesPanel.element);
    void Promise.race([this.#pairsPanel.opened, this.#filesPanel.opened])
      .then(() => import('./translate-byo'))
      .then(({ mountByo }) => {
        if (this.#dead) return;
        this.#byo = mountByo({ files: filesHost, pairs: pairsHost }, host, ctx, () => (trainer().step > 0 ? trainer().model : null), {
          prefix: 'translate',
          baseName: () => `attention-lab-${trainer().settings.task}`,
        });
      });
  }

  /** A new plain translation of `text` (the panel applies the link's interventions to it). */
  show(trainer: TranslateTrainer, text: string, result: TranslateResult): void {
    if (!trainer.model) return;
    this.#why.show(trainer.model, text, result, trainer.info?.targetTokenizer ?? 'words', trainer.settings.score !== 'none');
  }

  clear(): void {
    this.#why.clear();
  }

  onState(changed: readonly PropName[]): void {
    // A new sentence: the interventions were about the old one's steps and words.
    if (changed.includes('translate_text') && !changed.includes('translate_why')) this.#ctx.state.set('translate_why', '');
    else if (changed.includes('translate_why')) {
      if (this.#ctx.state.get('translate_why') !== '') this.#whyPanel.show();
      this.#why.linkChanged();
    }
  }

  /**
   * A new model: its probe sentence's attention is recorded from its first step (in the worker,
   * with the training). A model that cannot record (the widgets' build) has no timeline.
   */
  async startTimeline(trainer: TranslateTrainer, probe: string): Promise<void> {
    this.#timeline?.clear();
    const model = trainer.model;
    if (!model || probe.trim() === '') return;
    const every = Math.max(1, Math.round(trainer.recipeSteps / TIMELINE_FRAMES));
    try {
      await model.recordTimeline(probe, { every, capacity: TIMELINE_CAPACITY });
    } catch {
      // a sentence the model cannot take: no timeline (the sentence box says why)
    }
  }

  /** The frames so far (after an evaluation or a pause). */
  refreshTimeline(trainer: TranslateTrainer): void {
    if (trainer.model && trainer.step > 0) void this.#timeline?.refresh(trainer.model);
  }

  destroy(): void {
    this.#dead = true;
    for (const panel of [this.#whyPanel, this.#timelinePanel, this.#pairsPanel, this.#filesPanel]) panel.destroy();
    this.#why.destroy();
    this.#timeline?.destroy();
    this.#byo?.destroy();
  }
}
