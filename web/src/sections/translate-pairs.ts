// §3.3's own-pairs panel: the reader pastes or uploads tab-separated sentence pairs, picks words or
// characters and the share held out, and trains a translator on them with the section's model
// settings (cell, hidden size, score, rate, seed); then the held-out scores, the decoding view and
// the downloads, as for any task. The parsing and every check are the core's (task 'pairs'):
// a bad line comes back as the core's message naming it ("line 7: no tab between source and
// target"), shown as text. The settings are s2s_pairs (the text, escaped for the link, when it
// fits: a longer corpus is said not to travel), s2s_tokenize, s2s_held_out (percent) and s2s_pairs_steps.
import type { SectionContext } from '../section';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { fill } from '../i18n';
import { propDef } from '../state';
import { button, el, errorText, field, MessageLine, select, setFieldError } from './dom';
import { ModelDownloads, retagDecode, sampleSentence } from './model-file';
import { readTextFile } from './text-file';
import { DecodeView } from './translate-decode';

/** The longest escaped corpus a link carries: the state table's limit for s2s_pairs. */
export const LINK_LIMIT: number = propDef('s2s_pairs').maxLength;

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
  readonly element = el('div', 'tr-pairs');
  readonly #ctx: SectionContext;
  readonly #text = el('textarea', 'lab-input tr-pairs-text');
  readonly #upload = el('input');
  readonly #tokenize: HTMLSelectElement;
  readonly #heldOut = el('input');
  readonly #steps = el('input');
  readonly #train: HTMLButtonElement;
  readonly #link = el('p', 'tr-note tr-pairs-link');
  readonly #message = new MessageLine('tr-pairs-message');
  readonly #decode: DecodeView;
  readonly #decodeHost = el('div', 'tr-pairs-decode');
  #model: RemoteSeq2Seq | null = null;
  #seq = 0;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    this.element.dataset.testid = 's2s-pairs';
    this.element.append(el('h3', undefined, t('pairs.title')), el('p', 'tr-note', t('pairs.intro')));
    this.#text.dataset.testid = 's2s-pairs-text';
    this.#text.rows = 8;
    this.#text.spellcheck = false;
    const saved = state.get('s2s_pairs');
    this.#text.value = saved ? unescapePairs(saved) : t('pairs.example');
    this.#text.addEventListener('change', () => this.#toLink());
    const textField = field(t('pairs.text'), this.#text);
    this.#upload.type = 'file';
    this.#upload.accept = '.tsv,.txt,text/tab-separated-values,text/plain';
    this.#upload.dataset.testid = 's2s-pairs-upload';
    this.#upload.addEventListener('change', () => void this.#read());
    this.#tokenize = select([['words', t('pairs.tokenize.words')], ['chars', t('pairs.tokenize.chars')]], state.get('s2s_tokenize'), 's2s-tokenize');
    this.#tokenize.addEventListener('change', () => state.set('s2s_tokenize', this.#tokenize.value as 'words' | 'chars'));
    this.#number(this.#heldOut, 's2s_held_out', '1');
    this.#number(this.#steps, 's2s_pairs_steps', '1');
    this.#train = button(t('pairs.train'), 's2s-pairs-train', () => void this.train());
    const controls = el('div', 'al-controls');
    controls.append(
      field(t('pairs.upload'), this.#upload),
      field(t('pairs.tokenize'), this.#tokenize),
      field(t('pairs.heldOut'), this.#heldOut),
      field(t('pairs.steps'), this.#steps),
      this.#train,
    );
    this.#link.dataset.testid = 's2s-pairs-link';
    this.#message.element.dataset.testid = 's2s-pairs-message';
    this.#decodeHost.dataset.testid = 's2s-pairs-decode';
    this.#decodeHost.hidden = true;
    this.element.append(textField, controls, this.#link, this.#message.element, this.#decodeHost);
    this.#decode = new DecodeView(this.#decodeHost, t, 's2s-pairs-attention');
    retagDecode(this.#decodeHost, 's2s-pairs');
    new ModelDownloads(this.element, ctx, () => this.#model, () => 'my-pairs', 's2s-pairs-download');
    host.append(this.element);
    this.#toLink();
  }

  #number(input: HTMLInputElement, name: 's2s_held_out' | 's2s_pairs_steps', step: string): void {
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
    const isExample = this.#text.value === t('pairs.example');
    state.set('s2s_pairs', fits && !isExample ? escaped : '');
    this.#link.textContent = isExample
      ? t('pairs.link.example')
      : fits
        ? fill(t('pairs.link.kept'), { length })
        : fill(t('pairs.link.tooLong'), { length, limit: LINK_LIMIT });
  }

  /** A chosen file replaces the pairs once it is UTF-8 text within the core's limit; else they stay. */
  async #read(): Promise<void> {
    const file = this.#upload.files?.[0];
    setFieldError(this.#upload, null);
    if (!file) return;
    // the field named as the reader reads it, without the ellipsis of "choose…"
    const label = this.#ctx.t('pairs.upload').replace(/…$/, '');
    const read = await readTextFile(file, this.#ctx.t, label, PAIRS_MAX_MIB);
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
    const score = state.get('s2s_score');
    const steps = state.get('s2s_pairs_steps');
    try {
      await this.#model?.delete().catch(() => undefined);
      this.#model = null;
      const model = await lab.createSeq2Seq({
        task: 'pairs',
        pairs: this.#text.value,
        tokenize: state.get('s2s_tokenize'),
        heldOut: state.get('s2s_held_out') / 100,
        cell: state.get('s2s_cell'),
        hidden: state.get('s2s_hidden'),
        attention: score !== 'none',
        score: score === 'none' ? 'dot' : score,
        seed: state.get('seed'),
        learningRate: state.get('s2s_lr'),
      });
      if (seq !== this.#seq) return void model.delete();
      this.#model = model;
      const split = (await model.info()).pairs ?? { trainPairs: 0, heldOutPairs: 0, tokenize: 'words', heldOut: 0 };
      let done = 0;
      const stream = model.trainStream(steps, {
        onProgress: (r) => {
          done += r.losses.length;
          const loss = r.losses.length ? r.losses[r.losses.length - 1].toFixed(3) : '–';
          this.#message.show('info', fill(t('pairs.training'), { train: split.trainPairs, heldOut: split.heldOutPairs, step: done, steps, loss }));
        },
      });
      await stream.done;
      const ev = await model.evaluate();
      if (seq !== this.#seq) return;
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
      const key = ev.heldOutIsTrainingData ? 'pairs.done.noHeldOut' : 'pairs.done';
      this.#message.show('ok', fill(t(key), { steps: done, train: split.trainPairs, heldOut: split.heldOutPairs, exact: pct(ev.exactMatch), accuracy: pct(ev.tokenAccuracy) }));
      const vocabulary = await model.vocabulary();
      const chars = split.tokenize === 'chars';
      const sentence = firstSource(this.#text.value) || sampleSentence(vocabulary.source, chars);
      const result = await model.translate(sentence);
      if (seq !== this.#seq) return;
      this.#decode.show(result, chars ? 'chars' : 'words', score !== 'none');
      this.#decodeHost.hidden = false;
    } catch (err) {
      if (seq === this.#seq) this.#message.show('error', fill(t('pairs.error'), { message: errorText(err) }));
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
