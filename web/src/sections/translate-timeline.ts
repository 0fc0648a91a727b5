// §3.3's training timeline: while the model trains, the worker records the probe sentence's
// attention every k steps in bounded memory (recordTimeline, started by the section when the model
// is made); here a slider replays the frames (a heatmap that follows it, the step and the probe's
// translation at that step shown), Replay plays them in order, and the frames export as one JSON
// file (exportTimeline) or as one PNG contact sheet: up to SHEET_FRAMES frames evenly spread over
// the run, each painted by the heatmap PNG export (title with its step, labels, legend). One sheet
// rather than a file per frame: it shows the alignment forming at a glance, drops into a slide or
// a note as one picture, and a browser does not block it as a burst of downloads; any single frame
// is still a PNG through the heatmap's own export menu. Loaded on demand, article only.
import type { AttentionTimeline, TimelineFrame } from '#types/seq2seq';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { Heatmap } from '../heatmap/heatmap';
import { ColorScale } from '../heatmap/heatmap-color';
import { adoptCss, styleRootOf } from '../adopt-css';
import { downloadCanvas, downloadJson } from '../export';
import { fill, type Lang } from '../i18n';
import { distinctLabels } from './token-labels';
import { button, el, errorText, field } from './dom';
import { TIMELINE_STRINGS } from './translate-timeline-strings';
import css from './translate-why.css?inline';

/** frames on the PNG contact sheet at most, and its columns */
export const SHEET_FRAMES = 12;
const SHEET_COLUMNS = 4;
const REPLAY_MS = 150;
/** device pixels per CSS pixel of the contact sheet (crisp when zoomed or printed) */
const SHEET_RATIO = 2;

const label = (text: string) => (text === ' ' ? '␣' : text);

/** Up to `n` frame indices evenly spread from the first frame to the last, both included. */
export function sheetIndices(frames: number, n = SHEET_FRAMES): number[] {
  if (frames <= n) return Array.from({ length: frames }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.round((i * (frames - 1)) / (n - 1)));
}

export class TimelineView {
  readonly element = el('section', 'translate-why translate-timeline');
  readonly #t: (key: string) => string;
  readonly #note = el('p', 'translate-note');
  readonly #empty = el('p', 'translate-note');
  readonly #body = el('div');
  readonly #slider = el('input');
  readonly #replay: HTMLButtonElement;
  readonly #frameText = el('p', 'translate-why-text');
  readonly #map: Heatmap;
  readonly #error = el('p', 'lab-field-error');
  #model: RemoteSeq2Seq | null = null;
  #timeline: AttentionTimeline | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #seq = 0;

  constructor(host: HTMLElement, ctx: { t: (key: string) => string; lang: Lang }) {
    const own = TIMELINE_STRINGS[ctx.lang] ?? TIMELINE_STRINGS.en;
    const t = (key: string) => own[key] ?? ctx.t(key);
    this.#t = t;
    this.element.dataset.testid = 'translate-timeline';
    this.#slider.type = 'range';
    this.#slider.min = '0';
    this.#slider.step = '1';
    this.#slider.dataset.testid = 'translate-timeline-slider';
    this.#slider.addEventListener('input', () => {
      this.#stop();
      this.#showFrame(Number(this.#slider.value));
    });
    this.#replay = button(t('translate.timeline.replay'), 'translate-timeline-replay', () => this.#play());
    const controls = el('div', 'al-controls');
    const sliderField = field(t('translate.timeline.slider'), this.#slider);
    sliderField.classList.add('translate-timeline-slider');
    controls.append(sliderField, this.#replay);
    this.#frameText.dataset.testid = 'translate-timeline-frame';
    const mapHost = el('div');
    this.#map = new Heatmap(mapHost, { id: 'translate-timeline-map', title: t('translate.timeline.map'), fixedRange: [0, 1], xTitle: t('translate.timeline.axis.source'), yTitle: t('translate.timeline.axis.output'), t });
    const downloads = el('div', 'al-controls');
    downloads.append(
      button(t('translate.timeline.json'), 'translate-timeline-json', () => void this.#exportJson()),
      button(t('translate.timeline.sheet'), 'translate-timeline-png', () => void this.#exportSheet()),
    );
    this.#error.dataset.testid = 'translate-timeline-error';
    this.#error.setAttribute('role', 'alert');
    this.#body.append(this.#note, controls, this.#frameText, mapHost, el('p', 'translate-note', t('translate.timeline.sheet.why')), downloads);
    this.#empty.textContent = t('translate.timeline.empty');
    this.#empty.dataset.testid = 'translate-timeline-empty';
    this.element.append(el('h3', undefined, t('translate.timeline.title')), this.#empty, this.#body, this.#error);
    this.#body.hidden = true;
    host.append(this.element);
    const root = styleRootOf(this.element);
    if (root) adoptCss(root, css);
  }

  /** Fetches the frames recorded so far and shows the last (or the one the slider holds, while replaying). */
  async refresh(model: RemoteSeq2Seq): Promise<void> {
    const seq = ++this.#seq;
    let timeline: AttentionTimeline;
    try {
      timeline = await model.timeline();
    } catch (err) {
      if (seq !== this.#seq) return;
      this.#error.textContent = fill(this.#t('translate.timeline.error'), { message: errorText(err) });
      return;
    }
    if (seq !== this.#seq) return;
    this.#error.textContent = '';
    this.#model = model;
    this.#timeline = timeline;
    const frames = timeline.frames.length;
    // one frame is the untrained model: a replay needs at least two
    this.#empty.hidden = frames > 1;
    this.#body.hidden = frames <= 1;
    this.element.dataset.frames = String(frames);
    if (frames === 0) return;
    const probe = timeline.probe.map((s) => s.text).join(' ');
    this.element.dataset.probe = probe;
    this.#note.textContent = fill(this.#t(timeline.frames[0].attention ? 'translate.timeline.note' : 'translate.timeline.note.none'), { probe, every: timeline.every, frames });
    this.#slider.max = String(frames - 1);
    if (this.#timer === null) {
      this.#slider.value = String(frames - 1);
      this.#showFrame(frames - 1);
    }
  }

  /** A new model: no frames until it trains. */
  clear(): void {
    this.#seq++;
    this.#stop();
    this.#timeline = null;
    this.#model = null;
    this.#empty.hidden = false;
    this.#body.hidden = true;
    this.#error.textContent = '';
    this.element.dataset.frames = '0';
  }

  destroy(): void {
    this.clear();
    this.#map.destroy();
  }

  #frameTitle(frame: TimelineFrame): string {
    return fill(this.#t('translate.timeline.frame'), { step: frame.step });
  }

  #showFrame(i: number): void {
    const frame = this.#timeline?.frames[i];
    if (!frame) return;
    const words = frame.output.filter((w) => w !== '<eos>').join(' ');
    // the model's words in a span of their own language, in the sentence of the page's
    const [before, after = ''] = this.#t('translate.timeline.output').split('{output}');
    const output = el('span', undefined, words);
    output.lang = 'en';
    this.#frameText.replaceChildren(fill(before, { step: frame.step }), output, fill(after, { step: frame.step }));
    this.element.dataset.step = String(frame.step);
    this.element.dataset.frame = String(i);
    this.#map.title = this.#frameTitle(frame);
    const a = frame.attention;
    this.#map.element.hidden = !a || a.shape[0] === 0;
    if (!a || a.shape[0] === 0) return;
    const [rows, cols] = a.shape;
    this.#map.update({ rows, cols, values: a.data, rowLabels: distinctLabels(frame.output.slice(0, rows), this.#t), rowLang: 'en', colLabels: distinctLabels(this.#timeline!.probe.map((s) => label(s.text)), this.#t) });
  }

  #play(): void {
    const frames = this.#timeline?.frames.length ?? 0;
    if (frames < 2) return;
    this.#stop();
    let i = 0;
    this.#showFrame(i);
    this.#slider.value = '0';
    this.#timer = setInterval(() => {
      i++;
      if (i >= frames) return this.#stop();
      this.#slider.value = String(i);
      this.#showFrame(i);
    }, REPLAY_MS);
  }

  #stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #exportJson(): Promise<void> {
    const model = this.#model;
    if (!model) return;
    try {
      downloadJson('translate-timeline', JSON.parse(await model.exportTimeline()));
    } catch (err) {
      this.#error.textContent = fill(this.#t('translate.timeline.error'), { message: errorText(err) });
    }
  }

  /** The contact sheet: a title, then the chosen frames in a grid, each a heatmap PNG figure. */
  async #exportSheet(): Promise<void> {
    const timeline = this.#timeline;
    if (!timeline || timeline.frames.length === 0) return;
    const { figureCanvas } = await import('../heatmap/heatmap-export');
    const t = this.#t;
    const cols = timeline.probe.map((s) => label(s.text));
    const figures = sheetIndices(timeline.frames.length).flatMap((i) => {
      const frame = timeline.frames[i];
      const a = frame.attention;
      if (!a || a.shape[0] === 0) return [];
      const [rows, n] = a.shape;
      return [figureCanvas({
        title: this.#frameTitle(frame),
        scene: { rows, cols: n, values: Array.from(a.data), rowLabels: distinctLabels(frame.output.slice(0, rows), t), colLabels: distinctLabels(cols, t), scale: new ColorScale(0, 1, false), digits: 2, xTitle: t('translate.timeline.axis.source'), yTitle: t('translate.timeline.axis.output'), active: null },
        legend: { min: 0, max: 1 },
        gridHeight: rows * 30 + 42,
      }, SHEET_RATIO)];
    });
    if (figures.length === 0) return;
    const width = Math.max(...figures.map((c) => c.width));
    const height = Math.max(...figures.map((c) => c.height));
    const across = Math.min(SHEET_COLUMNS, figures.length);
    const header = 40 * SHEET_RATIO;
    const sheet = document.createElement('canvas');
    sheet.width = across * width;
    sheet.height = header + Math.ceil(figures.length / across) * height;
    const ctx = sheet.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, sheet.width, sheet.height);
    ctx.fillStyle = '#0f172a';
    ctx.font = `600 ${18 * SHEET_RATIO}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    ctx.fillText(fill(t('translate.timeline.sheet.title'), { probe: cols.join(' ') }), 12 * SHEET_RATIO, header / 2);
    figures.forEach((c, k) => ctx.drawImage(c, (k % across) * width, header + Math.floor(k / across) * height));
    this.element.dataset.sheetFrames = String(figures.length);
    await downloadCanvas('translate-timeline-frames', sheet);
  }
}
