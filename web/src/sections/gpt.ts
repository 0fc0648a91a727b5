// §5 From attention to GPT: a small character-level GPT (docs/gpt.md) trained live on the Tang
// poems in the page's worker (the GPT build, loaded when the section first comes into view, with
// the corpus), its loss against the unigram and bigram baselines, poems sampled every 100 steps with
// a mark for the form (wasm/js/gpt-form.mjs) and the share of them that has it, its generation one
// character at a time (gpt-generate.ts) and the reader's own text (gpt-text.ts). The sampling
// settings sit in a panel.
import { LineChart, type LineSeries } from '../charts/line-chart';
import { fill } from '../i18n';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import { checkNumber, el, errorText, field, MessageLine, mountRoot, primaryButton, button, refusedFieldsMessage, setFieldError, setText, tryThis } from './dom';
import { HEATMAP_CSS } from '../heatmap/heatmap';
import sharedCss from './dot-controls.css?inline';
import css from './gpt.css?inline';
import { GptGenerate, charLabel, type GeneratedText } from './gpt-generate';
import { GptHeads } from './gpt-heads';
import { fetchCorpus, GptRun, MILESTONE_SEEDS, tangSource, type CorpusSource } from './gpt-run';
import { GPT_STRINGS } from './gpt-strings';
import { GptOwnText } from './gpt-text';
import { Panel } from './panel';
import { parkingSlot } from './parked';
import { CHART_CSS } from '../charts/chart-css';

/** A trained GPT outlives a change of language (parked.ts), with what the reader generated from it
 *  and the text in the own-text box; there is one recipe, so one key. */
const parked = parkingSlot<{ run: GptRun; playing: boolean; generated: GeneratedText; ownText: string }>('gpt');
const PARK_KEY = 'tang300';
/** a held-out loss this far above its lowest (nats) is named as overfitting in the status line */
const OVERFIT_NATS = 0.1;

/** The evaluation with the lowest held-out loss so far (step and loss), or null before any. */
function lowestHeldOut(milestones: readonly { step: number; evaluation: { validationLoss: number } | null }[]): { step: number; loss: number } | null {
  let low: { step: number; loss: number } | null = null;
  for (const m of milestones) if (m.evaluation && (!low || m.evaluation.validationLoss < low.loss)) low = { step: m.step, loss: m.evaluation.validationLoss };
  return low;
}

const WATCHED: readonly PropName[] = ['gpt_zero', 'gpt_prompt', 'gpt_layer', 'gpt_head', 'gpt_temperature', 'gpt_top_k', 'gpt_top_p', 'gpt_steps', 'gpt_drills'];
/** Series colours (DARK_SERIES keys: each has its dark twin). */
const COLORS = { train: '#1d4ed8', val: '#c2410c', unigram: '#475569', bigram: '#15803d' };
const number = (lang: string) => new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en');

/** The string key of each setting's label in the panel. */
const SETTING_LABELS = { gpt_temperature: 'gpt.field.temperature', gpt_top_k: 'gpt.field.topK', gpt_top_p: 'gpt.field.topP', gpt_steps: 'gpt.field.steps', gpt_drills: 'gpt.field.drills' } as const;
type SettingName = keyof typeof SETTING_LABELS;

function checkSetting(t: (key: string) => string, name: SettingName, label: string, raw: string): string | null {
  const value = Number(raw.trim());
  if (raw.trim() !== '' && Number.isFinite(value)) {
    if (name === 'gpt_temperature' && value <= 0) return fill(t('gpt.error.positive'), { label });
    if (name === 'gpt_top_p' && (value <= 0 || value > 1)) return fill(t('gpt.error.topP'), { label });
  }
  const rule = { gpt_temperature: { min: 0.01, max: 10 }, gpt_top_k: { min: 0, max: 5000, integer: true }, gpt_top_p: { min: 0.01, max: 1 }, gpt_steps: { min: 10, max: 5000, integer: true }, gpt_drills: { min: 0, max: 0.95 } }[name];
  return checkNumber(t, label, raw, rule);
}

class GptView implements SectionHandle {
  readonly #ctx: SectionContext;
  /** the recipe's poems: the site's copy in the article, the kit's in a widget */
  readonly #tang: CorpusSource;
  readonly #root = el('div', 'gpt-section');
  readonly #corpus = el('p', 'gpt-corpus');
  readonly #modelLine = el('p', 'gpt-note');
  readonly #status = new MessageLine('gpt-status');
  readonly #samples = el('ol', 'gpt-samples');
  readonly #samplesTitle = el('p', 'gpt-note');
  readonly #chart: LineChart;
  /** the curves, hidden until the first step (as §3.3's): Chart.js comes with Train, not with the page */
  readonly #chartFigure = el('figure', 'gpt-chart');
  /** what the curves are: the Tang poems' note (their 1,600 characters), or the own text's */
  readonly #chartAbout = el('p', 'gpt-note gpt-chart-about');
  readonly #train: HTMLButtonElement;
  readonly #pause: HTMLButtonElement;
  readonly #generate: GptGenerate;
  readonly #heads: GptHeads;
  readonly #panel: Panel;
  readonly #ownPanel: Panel;
  readonly #own: GptOwnText;
  readonly #fields = new Map<string, HTMLInputElement>();
  readonly #unsubscribe: () => void;
  #run: GptRun;
  /** the run left for the next mount (park), which destroy() must not delete */
  #parked: GptRun | null = null;
  #started = false;
  /** training was under way when the section left the screen: it resumes when it is back */
  #resume = false;

  constructor(host: HTMLElement, ctx: SectionContext, fetchPoems: () => Promise<string>) {
    this.#ctx = ctx;
    this.#tang = tangSource(fetchPoems);
    const { t, state } = ctx;
    const adopted = parked.adopt(PARK_KEY);
    this.#run = adopted?.run ?? new GptRun(ctx.lab, this.#tang, this.#drillsFor(this.#tang));
    this.#resume = adopted?.playing ?? false;
    mountRoot(host, this.#root, HEATMAP_CSS, sharedCss, css, CHART_CSS);
    this.#root.dataset.step = '0';
    this.#root.dataset.playing = '0';
    this.#corpus.dataset.testid = 'gpt-corpus';
    this.#modelLine.dataset.testid = 'gpt-model';
    this.#corpus.textContent = t('gpt.corpus.loading');
    this.#root.append(el('p', 'gpt-intro', t('gpt.intro')), this.#corpus, this.#modelLine, tryThis(t('try.title'), [t('gpt.try.train'), t('gpt.try.drills'), t('gpt.try.temperature'), t('gpt.try.heads')]));

    this.#train = primaryButton(t('gpt.train'), 'gpt-train', () => this.#play());
    this.#pause = button(t('gpt.pause'), 'gpt-pause', () => this.#run.pause());
    const reset = button(t('gpt.reset'), 'gpt-reset', () => this.#reset());
    const controls = el('div', 'al-controls gpt-train-controls');
    controls.append(this.#train, this.#pause, reset, this.#status.element);
    this.#status.element.dataset.testid = 'gpt-status';

    const chartFigure = this.#chartFigure;
    const chartBox = el('div', 'gpt-chart-box');
    chartFigure.append(el('figcaption', undefined, t('gpt.chart')), chartBox, this.#chartAbout);
    this.#chart = new LineChart(chartBox, {
      label: t('gpt.chart'),
      x: { kind: 'linear', min: 0, integerStep: true, title: t('gpt.axis.step') },
      y: { title: t('gpt.axis.loss') },
      legend: true,
    });
    this.#samples.dataset.testid = 'gpt-samples';
    this.#samples.lang = 'zh';
    // the sampling settings (not the training steps) are in their panel, away from Next and Write:
    // the message says where
    const sampling = () => (['gpt_temperature', 'gpt_top_k', 'gpt_top_p'] as const).flatMap((name) => this.#fields.get(name) ?? []);
    this.#generate = new GptGenerate(ctx, this.#run, () => refusedFieldsMessage(t, sampling(), t('gpt.settings.place')));
    this.#heads = new GptHeads(ctx, this.#run);
    this.#generate.zeroHeads = () => this.#heads.zeroHeads() ?? [];
    if (adopted) this.#generate.restore(adopted.generated);
    this.#panel = new Panel(state, 'gpt_open_settings', t('gpt.panel.settings'), 'gpt-panel-settings');
    // what the settings do, where they are set
    this.#panel.body.append(el('p', 'gpt-note gpt-gen-about', t('gpt.gen.about')), this.#settings());
    const own = new GptOwnText(
      ctx,
      (text) => this.#trainOn({ own: true, corpus: () => Promise.resolve(text) }),
      () =>
        void this.#trainOn(this.#tang).catch((err: unknown) => this.#status.show('error', fill(t('gpt.error.corpus'), { message: errorText(err) }))),
    );
    const ownPanel = new Panel(state, 'gpt_open_text', t('gpt.panel.own'), 'gpt-panel-own');
    const headsPanel = new Panel(state, 'gpt_open_heads', t('gpt.heads.title'), 'gpt-panel-heads');
    headsPanel.body.append(this.#heads.element);
    ownPanel.body.append(own.element);
    if (adopted) own.text = adopted.ownText;
    this.#own = own;
    this.#ownPanel = ownPanel;
    // the samples beside the curve where there is room: what the loss means, next to it
    const samples = el('div', 'gpt-samples-box');
    samples.append(this.#samplesTitle, this.#samples);
    const training = el('div', 'gpt-training');
    training.append(chartFigure, samples);
    this.#root.append(controls, training, ownPanel.element, headsPanel.element, this.#generate.element, this.#panel.element);
    this.#unsubscribe = state.subscribe((changed) => this.#onState(changed));
    this.#draw();
  }

  #settings(): HTMLElement {
    const { t, state } = this.#ctx;
    const box = el('div', 'al-controls');
    const rows = [
      ['gpt_temperature', '0.1'],
      ['gpt_top_k', '1'],
      ['gpt_top_p', '0.05'],
      ['gpt_steps', '100'],
      ['gpt_drills', '0.05'],
    ] as const;
    for (const [name, stepSize] of rows) {
      const key = SETTING_LABELS[name];
      const input = el('input');
      input.type = 'number';
      input.step = stepSize;
      input.value = String(state.get(name));
      input.dataset.testid = name.replace(/_/g, '-');
      const label = t(key);
      input.addEventListener('change', () => {
        const message = checkSetting(t, name, label, input.value);
        setFieldError(input, message);
        if (message === null) state.set(name, Number(input.value.trim()));
      });
      this.#fields.set(name, input);
      box.append(field(label, input));
    }
    return box;
  }

  #onState(changed: readonly PropName[]): void {
    if (!changed.some((c) => WATCHED.includes(c))) return;
    for (const [name, input] of this.#fields) {
      const value = String(this.#ctx.state.get(name as PropName));
      if (changed.includes(name as PropName) && Number(input.value) !== Number(value)) {
        input.value = value;
        setFieldError(input, null);
      }
    }
    this.#generate.onState(changed);
    // form drills are a setting of the training run: another share is another model, from step 0
    if (changed.includes('gpt_drills') && this.#drillsFor(this.#run.source) !== this.#run.drills) this.#renew();
    this.#draw();
  }

  /** The section's first time on screen: the corpus and the GPT build load now, never at page load. */
  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#run.ready().then(
      () => {
        this.#generate.checkPrompt();
        this.#draw();
      },
      (err: unknown) => this.#status.show('error', fill(this.#ctx.t('gpt.error.corpus'), { message: errorText(err) })),
    );
  }

  #play(): void {
    const run = this.#run;
    if (run.playing) return;
    // a refused step count would otherwise train the last accepted one
    const stepsField = this.#fields.get('gpt_steps')?.closest('label');
    const refused = stepsField ? refusedFieldsMessage(this.#ctx.t, stepsField) : null;
    if (refused !== null) return this.#status.show('error', refused);
    // a paused run goes on to its end; a finished one trains as many steps again
    const target = run.step < run.target ? run.target : run.step + this.#ctx.state.get('gpt_steps');
    this.#root.dataset.playing = '1';
    this.#draw();
    run
      .play(target, () => this.#draw())
      .catch((err: unknown) => {
        if (run === this.#run) this.#status.show('error', `${this.#ctx.t('error.prefix')}${errorText(err)}`);
      })
      .finally(() => {
        if (run !== this.#run) return;
        this.#root.dataset.playing = '0';
        this.#draw();
      });
  }

  #reset(): void {
    void this.#run.delete();
    this.#adopt(new GptRun(this.#ctx.lab, this.#run.source, this.#drillsFor(this.#run.source)));
    this.#started = false;
    this.#start();
    this.#draw();
  }

  /** A new model on the same corpus with the settings' drills: started now if the old one was. */
  #renew(): void {
    if (this.#started) return this.#reset();
    void this.#run.delete();
    this.#adopt(new GptRun(this.#ctx.lab, this.#run.source, this.#drillsFor(this.#run.source)));
  }

  /** Form drills are the Tang poems' recipe: a reader's own text, prose or verse of any form,
   *  trains on itself alone (drills of its punctuation around random characters would teach it
   *  random characters). */
  #drillsFor(source: CorpusSource): number {
    return source.own ? 0 : this.#ctx.state.get('gpt_drills');
  }

  #adopt(run: GptRun): void {
    this.#run = run;
    this.#generate.setRun(run);
    this.#heads.setRun(run);
    this.#root.dataset.playing = '0';
    this.#status.show('info', '');
    this.#samples.replaceChildren();
  }

  /** A new run on `source`, which replaces the current one only once its session exists: on a
   *  refusal the model trained so far stays, and the promise rejects with the reason. */
  async #trainOn(source: CorpusSource): Promise<void> {
    const run = new GptRun(this.#ctx.lab, source, this.#drillsFor(source));
    try {
      await run.ready();
    } catch (err) {
      await run.delete();
      throw err;
    }
    void this.#run.delete();
    this.#adopt(run);
    this.#started = true;
    this.#generate.checkPrompt();
    this.#draw();
    this.#play();
  }

  #draw(): void {
    const { t, lang, state } = this.#ctx;
    const run = this.#run;
    const fmt = number(lang);
    const info = run.info;
    if (info) {
      const c = info.corpus;
      setText(this.#corpus, fill(t(run.source.own ? 'gpt.corpus.own' : 'gpt.corpus'), {
        poems: fmt.format(c.poems), chars: fmt.format(c.trainCharacters + c.heldOutCharacters), vocab: fmt.format(info.vocab.length),
        heldOut: fmt.format(c.heldOutPoems), heldOutChars: fmt.format(c.heldOutCharacters),
      }));
      // what the chart's note counts: the distinct characters, and the text the baselines count in
      this.#corpus.dataset.vocab = String(info.vocab.length);
      this.#corpus.dataset.trainCharacters = String(c.trainCharacters);
      const k = info.config;
      setText(this.#modelLine, fill(t('gpt.model'), { layers: k.layers, heads: k.heads, dModel: k.dModel, block: k.blockSize, params: fmt.format(info.parameters) }) +
        (k.drills > 0 ? fill(t('gpt.model.drills'), { share: `${Math.round(100 * k.drills)}%` }) : ''));
      this.#modelLine.dataset.drills = String(k.drills);
    }
    const step = run.step;
    const evaluation = run.evaluation;
    this.#root.dataset.step = String(step);
    this.#root.dataset.own = run.source.own ? '1' : '0';
    setText(this.#chartAbout, t('gpt.chart.about') + (run.source.own ? '' : t('gpt.chart.about.tang')));
    this.#train.disabled = run.playing || !info;
    this.#pause.disabled = !run.playing;
    if (evaluation) {
      this.#root.dataset.evaluatedAt = String(run.milestones.at(-1)!.step);
      this.#root.dataset.valLoss = String(evaluation.validationLoss);
      this.#root.dataset.unigram = String(evaluation.unigramLoss);
      this.#root.dataset.bigram = String(evaluation.bigramLoss);
      // the held-out loss at each evaluation (step: loss), for the tests that read the curve
      this.#root.dataset.valLosses = JSON.stringify(run.milestones.filter((m) => m.evaluation).map((m) => [m.step, m.evaluation!.validationLoss]));
    }
    if (this.#status.element.dataset.kind !== 'error' || run.playing) {
      if (run.playing) this.#status.show('info', fill(t('gpt.status.training'), { step, target: run.target }));
      else if (evaluation) {
        const f = (x: number) => x.toFixed(2);
        const loss = fill(t('gpt.status.loss'), { step: run.milestones.at(-1)!.step, val: f(evaluation.validationLoss), uni: f(evaluation.unigramLoss), bi: f(evaluation.bigramLoss) });
        // a held-out loss well above its lowest is said, not left for the reader to spot on the chart
        const low = lowestHeldOut(run.milestones);
        const overfit = low && evaluation.validationLoss > low.loss + OVERFIT_NATS ? fill(t('gpt.status.overfit'), { step: low.step, val: f(low.loss) }) : '';
        this.#status.show('ok', loss + overfit);
      } else this.#status.show('info', fill(t('gpt.status.idle'), { step }));
    }
    const nl = t('gpt.newline');
    setText(this.#samplesTitle, fill(t('gpt.samples'), { n: MILESTONE_SEEDS.length }));
    if (this.#samples.children.length !== run.milestones.length) {
      this.#samples.replaceChildren(
        ...run.milestones.map((m) => {
          const first = m.samples[0];
          const item = el('li');
          item.dataset.form = first.form.ok ? '1' : '0';
          const mark = el('span', first.form.ok ? 'gpt-form-mark ok' : 'gpt-form-mark', first.form.ok ? '✓' : '✗');
          mark.title = t(first.form.ok ? 'gpt.form.yes' : 'gpt.form.no');
          mark.setAttribute('aria-hidden', 'true'); // read as its words, next to it
          const inForm = m.samples.filter((x) => x.form.ok).length;
          item.append(
            fill(t('gpt.sample.line'), { step: m.step, form: inForm, n: m.samples.length }),
            mark,
            el('span', 'lab-visually-hidden', mark.title),
            el('span', 'gpt-sample-poem', Array.from(first.poem, (c) => charLabel(c, nl)).join('')),
          );
          return item;
        }),
      );
    }
    this.#root.dataset.samples = String(run.milestones.length);
    // the step-0 losses are in the status line until then
    this.#chartFigure.hidden = step === 0 && !run.playing;
    const last = run.milestones.at(-1);
    if (last) this.#root.dataset.formRate = String(last.formRate);
    this.#heads.draw();
    this.#drawChart(Math.max(state.get('gpt_steps'), run.target, step));
  }

  #drawChart(maxStep: number): void {
    const { t } = this.#ctx;
    const run = this.#run;
    const series: LineSeries[] = [{ label: t('gpt.series.train'), color: COLORS.train, width: 1.5, points: run.losses.map((y, i) => ({ x: i + 1, y })) }];
    const ms = run.milestones;
    if (ms.length > 0) {
      const base = ms[0].evaluation;
      series.push(
        { label: t('gpt.series.val'), color: COLORS.val, width: 2, marker: 'circle', markerRadius: 4, line: false, points: ms.map((m) => ({ x: m.step, y: m.evaluation.validationLoss })) },
        { label: t('gpt.series.unigram'), color: COLORS.unigram, dash: [6, 4], width: 1.5, points: [{ x: 0, y: base.unigramLoss }, { x: maxStep, y: base.unigramLoss }] },
        { label: t('gpt.series.bigram'), color: COLORS.bigram, dash: [2, 3], width: 1.5, points: [{ x: 0, y: base.bigramLoss }, { x: maxStep, y: base.bigramLoss }] },
      );
    }
    this.#chart.update({ series });
  }

  setActive(active: boolean): void {
    if (active) {
      this.#start();
      if (this.#resume) {
        this.#resume = false;
        this.#play();
      }
    } else if (this.#run.playing) {
      this.#resume = true;
      this.#run.pause();
    }
  }

  onWorkerRestart(): void {
    this.#reset();
  }

  park(): void {
    const playing = this.#run.playing;
    this.#run.pause(); // the next mount trains on if this one was training
    parked.park(PARK_KEY, { run: this.#run, playing, generated: this.#generate.saved(), ownText: this.#own.text }, ({ run }) => void run.delete());
    this.#parked = this.#run;
  }

  destroy(): void {
    this.#unsubscribe();
    if (this.#run !== this.#parked) void this.#run.delete();
    this.#generate.destroy();
    this.#chart.destroy();
    this.#panel.destroy();
    this.#ownPanel.destroy();
  }
}

/** §5 with its poems from `corpus` (<gpt-demo> and the iframe page: the kit's copy, widgets/gpt-corpus.ts). */
export function gptSectionWith(corpus: () => Promise<string>): SectionModule {
  return { id: 'gpt', strings: GPT_STRINGS, mount: (host, ctx) => new GptView(host, ctx, corpus) };
}

/** The article's §5: the poems beside the page. */
export const gptSection = gptSectionWith(fetchCorpus);
