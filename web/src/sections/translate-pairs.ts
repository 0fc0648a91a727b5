// §3.3's own-pairs panel: the reader pastes or uploads tab-separated sentence pairs, picks words or
// characters and the share held out, and trains a translator on them with the section's model
// settings (cell, hidden size, score, rate, seed); then the held-out scores, the decoding view and
// the downloads, as for any task. The parsing and every check are the core's (task 'pairs'):
// a bad line comes back as the core's message naming it ("line 7: no tab between source and
// target"), shown as text. The settings are translate_pairs (the text, escaped for the link, when it
// fits: a longer corpus is said not to travel), translate_tokenize, translate_held_out (percent) and translate_pairs_steps.
import type { SectionContext } from '../section';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { fill } from '../i18n';
import { propDef } from '../state';
import { button, el, errorText, field, MessageLine, select, setFieldError } from './dom';
import { ModelDownloads, retagDecode, sampleSentence } from './model-file';
import { readTextFile } from './text-file';
import { DecodeView } from './translate-decode';

/** The longest escaped corpus a link carries: the state table's limit for translate_pairs. */
export const LINK_LIMIT: number = propDef('translate_pairs').maxLength;

/** The largest pairs text the core takes (kMaxPairsBytes, wasm/src/sequence/task_pairs.h). */
const PAIRS_MAX_MIB = 1;

/** The text as it travels in the link: backslash, tab and newline escaped (\\, \t, \n); CR dropped. */
export function escapePairs(text: string): string {
  return text.replace(/\r/g, '').replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
}

export function unescapePairs(text: string): string {
  return text.replace(/\\(\\|t|n)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'));
}

/** The first pair's source, for the sentence decoded after training. */
export function firstSource(text: string): string {
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const tab = line.indexOf('\t');
    if (tab > 0) return line.slice(0, tab).trim();
  }
  return '';
}

export class PairsPanel {
  readonly element = el('div', 'translate-pairs');
  readonly #ctx: SectionContext;
  readonly #text = el('textarea', 'lab-input translate-pairs-text');
  readonly #upload = el('input');
  readonly #tokenize: HTMLSelectElement;
  readonly #heldOut = el('input');
  readonly #steps = el('input');
  readonly #train: HTMLButtonElement;
  readonly #link = el('p', 'translate-note translate-pairs-link');
  readonly #message = new MessageLine('translate-pairs-message');
  readonly #decode: DecodeView;
  readonly #decodeHost = el('div', 'translate-pairs-decode');
  #model: RemoteSeq2Seq | null = null;
  #seq = 0;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    this.element.dataset.testid = 'translate-pairs';
    this.element.append(el('h3', undefined, t('translate.pairs.title')), el('p', 'translate-note', t('translate.pairs.intro')));
    this.#text.dataset.testid = 'translate-pairs-text';
    this.#text.rows = 8;
    this.#text.spellcheck = false;
    const saved = state.get('translate_pairs');
    this.#text.value = saved ? unescapePairs(saved) : t('translate.pairs.example');
    this.#text.addEventListener('change', () => this.#toLink());
    const textField = field(t('translate.pairs.text'), this.#text);
    this.#upload.type = 'file';
    this.#upload.accept = '.tsv,.txt,text/tab-separated-values,text/plain';
    this.#upload.dataset.testid = 'translate-pairs-upload';
    this.#upload.addEventListener('change', () => void this.#read());
    this.#tokenize = select([['words', t('translate.pairs.tokenize.words')], ['chars', t('translate.pairs.tokenize.chars')]], state.get('translate_tokenize'), 'translate-tokenize');
    this.#tokenize.addEventListener('change', () => state.set('translate_tokenize', this.#tokenize.value as 'words' | 'chars'));
    this.#number(this.#heldOut, 'translate_held_out', '1');
    this.#number(this.#steps, 'translate_pairs_steps', '1');
    this.#train = button(t('translate.pairs.train'), 'translate-pairs-train', () => void this.train());
    const controls = el('div', 'al-controls');
    controls.append(
      field(t('translate.pairs.upload'), this.#upload),
      field(t('translate.pairs.tokenize'), this.#tokenize),
      field(t('translate.pairs.heldOut'), this.#heldOut),
      field(t('translate.pairs.steps'), this.#steps),
      this.#train,
    );
    this.#link.dataset.testid = 'translate-pairs-link';
    this.#message.element.dataset.testid = 'translate-pairs-message';
    this.#decodeHost.dataset.testid = 'translate-pairs-decode';
    this.#decodeHost.hidden = true;
    this.element.append(textField, controls, this.#link, this.#message.element, this.#decodeHost);
    this.#decode = new DecodeView(this.#decodeHost, t, 'translate-pairs-attention');
    retagDecode(this.#decodeHost, 'translate-pairs');
    new ModelDownloads(this.element, ctx, () => this.#model, () => 'my-pairs', 'translate-pairs-download');
    host.append(this.element);
    this.#toLink();
  }

  #number(input: HTMLInputElement, name: 'translate_held_out' | 'translate_pairs_steps', step: string): void {
    input.type = 'number';
    input.step = step;
    input.dataset.testid = name.replace(/_/g, '-');
    input.value = String(this.#ctx.state.get(name));
    input.addEventListener('change', () => {
      try {
        this.#ctx.state.set(name, Number(input.value));
        setFieldError(input, null);
      } catch (err) {
        setFieldError(input, errorText(err));
      }
    });
  }

  /** Puts the corpus in the link when it fits, and says which it is. */
  #toLink(): void {
    const { t, state } = this.#ctx;
    const escaped = escapePairs(this.#text.value).trim();
    const length = [...escaped].length;
    const fits = length <= LINK_LIMIT && !/[\u0000-\u001f\u007f]/.test(escaped);
    // The example pairs are the setting's default (empty): a link need not carry them.
    const isExample = this.#text.value === t('translate.pairs.example');
    state.set('translate_pairs', fits && !isExample ? escaped : '');
    this.#link.textContent = isExample
      ? t('translate.pairs.link.example')
      : fits
        ? fill(t('translate.pairs.link.kept'), { length })
        : fill(t('translate.pairs.link.tooLong'), { length, limit: LINK_LIMIT });
  }

  /** A chosen file replaces the pairs once it is UTF-8 text within the core's limit; else they stay. */
  async #read(): Promise<void> {
    const file = this.#upload.files?.[0];
    setFieldError(this.#upload, null);
    if (!file) return;
    // the field named as the reader reads it, without the ellipsis of "choose…"
    const label = this.#ctx.t('translate.pairs.upload').replace(/…$/, '');
    const read = await readTextFile(file, this.#ctx.lang, label, PAIRS_MAX_MIB);
    this.#upload.value = ''; // the same file chosen again is read again
    if ('error' in read) return setFieldError(this.#upload, read.error);
    this.#text.value = read.text;
    this.#toLink();
  }

  /** Creates a model on the pairs (the core checks them), trains it, scores it and decodes a sentence. */
  async train(): Promise<void> {
    const { t, state, lab } = this.#ctx;
    const seq = ++this.#seq;
    this.#toLink();
    this.#train.disabled = true;
    const score = state.get('translate_score');
    const steps = state.get('translate_pairs_steps');
    try {
      await this.#model?.delete().catch(() => undefined);
      this.#model = null;
      const model = await lab.createSeq2Seq({
        task: 'pairs',
        pairs: this.#text.value,
        tokenize: state.get('translate_tokenize'),
        heldOut: state.get('translate_held_out') / 100,
        cell: state.get('translate_cell'),
        hidden: state.get('translate_hidden'),
        attention: score !== 'none',
        score: score === 'none' ? 'dot' : score,
        seed: state.get('seed'),
        learningRate: state.get('translate_lr'),
      });
      if (seq !== this.#seq) return void model.delete();
      this.#model = model;
      const split = (await model.info()).pairs ?? { trainPairs: 0, heldOutPairs: 0, tokenize: 'words', heldOut: 0 };
      let done = 0;
      const stream = model.trainStream(steps, {
        onProgress: (r) => {
          done += r.losses.length;
          const loss = r.losses.length ? r.losses[r.losses.length - 1].toFixed(3) : '–';
          this.#message.show('info', fill(t('translate.pairs.training'), { train: split.trainPairs, heldOut: split.heldOutPairs, step: done, steps, loss }));
        },
      });
      await stream.done;
      const ev = await model.evaluate();
      if (seq !== this.#seq) return;
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
      const key = ev.heldOutIsTrainingData ? 'translate.pairs.done.noHeldOut' : 'translate.pairs.done';
      this.#message.show('ok', fill(t(key), { steps: done, train: split.trainPairs, heldOut: split.heldOutPairs, exact: pct(ev.exactMatch), accuracy: pct(ev.tokenAccuracy) }));
      const vocabulary = await model.vocabulary();
      const chars = split.tokenize === 'chars';
      const sentence = firstSource(this.#text.value) || sampleSentence(vocabulary.source, chars);
      const result = await model.translate(sentence);
      if (seq !== this.#seq) return;
      this.#decode.show(result, chars ? 'chars' : 'words', score !== 'none');
      this.#decodeHost.hidden = false;
    } catch (err) {
      if (seq === this.#seq) this.#message.show('error', fill(t('translate.pairs.error'), { message: errorText(err) }));
    } finally {
      if (seq === this.#seq) this.#train.disabled = false;
    }
  }

  destroy(): void {
    ++this.#seq;
    this.#decode.destroy();
    void this.#model?.delete().catch(() => undefined);
    this.#model = null;
  }
}
