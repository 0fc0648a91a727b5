// §4's decoding, step by step: at output step k the source tokens light up by step k's
// cross-attention (one layer and head, a layer's mean over its heads, or the rollout through every
// layer: the reader picks), the output grows by one token, and a heatmap lists step k's
// cross-attention of every layer and head over the source with the rollout as its last row.
import type { TransformerTranslateResult } from '#shared/types/seq2seq';
import { Heatmap } from '../heatmap/heatmap';
import { fill } from '../i18n';
import { el, field, setOptions } from './dom';
import { sourceChips, sourceList, StepPlayer } from './translate-step-player';
import type { RovingFocus } from './keyboard';
import { sourceLight, stepMatrix } from './transformer-maps';

type T = (key: string) => string;
const PLAY_MS = 400;

/** The choices of what lights the source: [layer, head] (0, 0: rollout; l, 0: layer l's mean). */
export function lightChoices(layers: number, heads: number): [number, number][] {
  const out: [number, number][] = [[0, 0]];
  for (let l = 1; l <= layers; l++) {
    out.push([l, 0]);
    for (let h = 1; h <= heads; h++) out.push([l, h]);
  }
  return out;
}

export class TransformerDecodeView {
  readonly element = el('div', 'tf-decode');
  readonly #t: T;
  readonly #progress = el('p', 'tf-decode-progress');
  readonly #source = el('div', 'tf-source');
  readonly #sourceFocus: RovingFocus;
  readonly #output = el('output', 'tf-output');
  readonly #light = el('select');
  readonly #player: StepPlayer;
  readonly #heatmap: Heatmap;
  #result: TransformerTranslateResult | null = null;
  #joiner = '';
  #layer = 0;
  #head = 0;

  /** `onLight`: the reader picked what lights the source (the section stores it in the state) */
  constructor(host: HTMLElement, t: T, onLight: (layer: number, head: number) => void) {
    this.#t = t;
    this.#player = new StepPlayer({
      view: this.element,
      progress: this.#progress,
      t,
      keys: { play: 'tf.decode.play', step: 'tf.decode.step', restart: 'tf.decode.restart', progress: 'tf.decode.progress', waiting: 'tf.decode.waiting' },
      testPrefix: 'tf-decode',
      className: 'tf-decode-controls',
      ms: PLAY_MS,
      total: () => this.#total(),
      loaded: () => this.#result !== null,
      render: (pos) => this.#render(pos),
    });
    const controls = this.#player.controls;
    this.#light.dataset.testid = 'tf-light';
    this.#light.addEventListener('change', () => {
      const [l, h] = this.#light.value.split(',').map(Number);
      onLight(l, h);
    });
    controls.append(field(t('tf.decode.light'), this.#light));
    this.#output.dataset.testid = 'tf-output';
    // the translation is said when it changes (a new one, or a step of the decoding)
    this.#output.setAttribute('aria-live', 'polite');
    this.#output.setAttribute('aria-atomic', 'true');
    this.#source.dataset.testid = 'tf-source';
    this.#sourceFocus = sourceList(this.#source, t('tf.decode.source'));
    const outRow = el('p', 'tf-output-row');
    outRow.append(el('span', 'tf-label', t('tf.decode.output')), this.#output);
    const mapBox = el('div', 'tf-step-map');
    this.#heatmap = new Heatmap(mapBox, {
      id: 'tf-step-cross',
      title: t('tf.decode.map'),
      fixedRange: [0, 1],
      xTitle: t('tf.axis.source'),
      yTitle: t('tf.axis.layerHead'),
      t,
    });
    this.element.append(el('h3', undefined, t('tf.decode')), controls, this.#progress, el('p', 'tf-label', t('tf.decode.source')), this.#source, outRow, mapBox);
    host.append(this.element);
    this.#player.go(0);
  }

  /** The layers and heads to offer, and the current choice. */
  setLight(layers: number, heads: number, layer: number, head: number): void {
    const t = this.#t;
    const options = lightChoices(layers, heads).map(([l, h]) => {
      const text = l === 0 ? t('tf.light.rollout') : h === 0 ? fill(t('tf.light.mean'), { l }) : fill(t('tf.light.head'), { l, h });
      return [`${l},${h}`, text] as const;
    });
    this.#layer = Math.min(layer, layers);
    this.#head = this.#layer === 0 ? 0 : Math.min(head, heads);
    setOptions(this.#light, options, `${this.#layer},${this.#head}`);
    this.#player.go(this.#player.pos);
  }

  /** A new translation, shown whole (the reader steps or plays it). */
  show(result: TransformerTranslateResult, chars: boolean): void {
    this.#result = result;
    this.#joiner = chars ? '' : ' ';
    this.#player.show();
  }

  clear(): void {
    this.#result = null;
    this.#player.rewind();
  }

  destroy(): void {
    this.#player.stop();
    this.#heatmap.destroy();
  }

  #total(): number {
    return this.#result?.steps?.length ?? 0;
  }

  /** Step `pos` of the translation shown (the player has set the progress line). */
  #render(pos: number): void {
    const t = this.#t;
    const r = this.#result;
    const total = this.#total();
    const k = pos - 1;
    const light = r && k >= 0 ? sourceLight(r, k, this.#layer, this.#head) : null;
    this.element.dataset.light = light ? JSON.stringify(Array.from(light, (w) => Number(w.toFixed(4)))) : '';
    this.#sourceFocus.update(() => this.#source.replaceChildren(...sourceChips(r?.source ?? [], light, 'tf', t('tf.unknown'))));
    const steps = r?.steps ?? [];
    const written = steps.slice(0, pos).map((s) => s.token).filter((tok) => tok !== '<eos>');
    this.#output.value = r && pos === total ? r.text : written.join(this.#joiner);
    const m = r && k >= 0 ? stepMatrix(r, k, t('tf.light.rolloutRow'), (l, h) => fill(t('tf.light.headShort'), { l, h })) : null;
    this.#heatmap.element.hidden = !m;
    if (m) {
      this.#heatmap.title = fill(t('tf.decode.mapAt'), { step: k + 1, token: steps[k].token });
      this.#heatmap.update(m);
    }
  }
}
