// Bring your own model: a file picker with drag and drop for .safetensors translators (PyTorch's
// state dict with its config and vocabularies, docs/safetensors.md) and this project's own model
// files, and the "Download model" buttons. Reusable: any section (§3.3 here, through
// translate-byo.ts; §4's Transformer likewise) mounts them with its own context:
//   const own = withStrings(ctx);            // model-file-strings.ts, looked up first
//   adoptCss(styleRootOf(root)!, css);       // model-file.css?inline
//   const picker = new ModelFilePanel(host, own, 'transformer-file');   // test ids transformer-file-…
//   new ModelDownloads(host, own, () => trainedModel, () => 'my-transformer');
//   … picker.destroy() when the section goes.
// A loaded file shows its configuration, its
// vocabularies and, for a sentence, the decoding view (step-by-step attention heatmaps). Every
// problem is shown inline, as text, naming it (the core's own message); the page keeps working.
import type { SectionContext } from '../section';
import type { RemoteSeq2Seq, SaveOptions, Seq2SeqInfo } from '../worker/protocol';
import { fill, translator } from '../i18n';
import { MODEL_FILE_STRINGS } from './model-file-strings';
import { TRANSLATE_STRINGS } from './translate-strings';
import { button, el, errorText, field, MessageLine } from './dom';
import { DecodeView } from './translate-decode';

type Ctx = Pick<SectionContext, 'lab' | 't' | 'lang'>;

/**
 * The context with this file's strings (model-file-strings.ts) looked up first, then §3.3's
 * (translate-strings.ts: the decoding view's labels, which §4's panel shows too), then the
 * section's own: the panels are loaded on demand, so no section's table need carry them.
 */
export function withStrings<C extends Ctx>(ctx: C): C {
  const own = translator(ctx.lang, MODEL_FILE_STRINGS, TRANSLATE_STRINGS);
  return {
    ...ctx,
    t: (key: string) => {
      const s = own(key);
      return s === key ? ctx.t(key) : s;
    },
  };
}

/** Files above this are refused before reading them (a browser tab's memory, not the format's limit). */
export const MAX_MODEL_FILE_MIB = 256;
/** Tokens of each vocabulary listed; the rest are counted. */
const VOCAB_SHOWN = 80;
const RESERVED = new Set(['<pad>', '<sos>', '<eos>', '<unk>']);

/** What info() of any translator says (a session, an imported .safetensors one, a Transformer). */
type AnyInfo = Seq2SeqInfo & Record<string, unknown>;

function kib(bytes: number): string {
  return (bytes / 1024).toFixed(0);
}

/** Starts a browser download of bytes made in the page (a Blob URL; nothing is sent anywhere). */
export function downloadBytes(bytes: Uint8Array, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }));
  const a = el('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A second decoding view on the page gets its own test ids: DecodeView names its controls translate-…,
 * which stay the section's main view's; this one's become `${prefix}-…`.
 */
export function retagDecode(host: HTMLElement, prefix: string): void {
  for (const node of host.querySelectorAll<HTMLElement>('[data-testid^="translate-"]')) {
    node.dataset.testid = `${prefix}-${node.dataset.testid!.slice('translate-'.length)}`;
  }
}

/** The rows of the configuration table: [label key, value]; only what the model has. */
export function configRows(info: AnyInfo, t: (key: string) => string): [string, string][] {
  const rows: [string, string][] = [];
  const add = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') rows.push([t(`mf.key.${key}`), String(value)]);
  };
  add('format', info.format === 'safetensors' ? `.safetensors (${String(info.names ?? 'project')} names)` : '.atlb');
  const transformer = info.arch === 'transformer';
  add('arch', transformer ? 'Transformer' : 'RNN encoder-decoder');
  add('task', info.task ?? (info.metadata as Record<string, string> | undefined)?.task);
  if (transformer) {
    add('layers', info.layers);
    add('heads', info.heads);
    add('dModel', info.dModel);
    add('dFF', info.dFF);
  } else {
    add('cell', typeof info.cell === 'string' ? info.cell.toUpperCase() : undefined);
    add('hidden', info.hidden);
    add('embedding', info.embedding);
    add('attention', info.attention ? `${info.score}${info.attentionalTanh ? ' + tanh' : ''}` : t('mf.attention.none'));
  }
  add('tokenizer', info.sourceTokenizer);
  add('parameters', typeof info.parameterCount === 'number' ? info.parameterCount.toLocaleString('en-US') : undefined);
  add('step', info.step);
  return rows;
}

/** A token list for display: the reserved names left out, the first VOCAB_SHOWN shown. */
function vocabList(tokens: readonly string[], t: (key: string) => string): HTMLElement {
  const list = el('p', 'mf-vocab');
  const shown = tokens.filter((token) => !RESERVED.has(token));
  const head = shown.slice(0, VOCAB_SHOWN);
  for (const token of head) list.append(el('code', 'mf-token', token), ' ');
  if (shown.length > head.length) list.append(el('span', 'translate-note', fill(t('mf.vocab.more'), { count: shown.length - head.length })));
  return list;
}

/** A default sentence a model can read: the first three of its source words (or characters). */
export function sampleSentence(source: readonly string[], chars: boolean): string {
  const words = source.filter((token) => !RESERVED.has(token)).slice(0, 3);
  return words.join(chars ? '' : ' ');
}

/**
 * The picker: a drop zone that is also a button opening the file dialog. `onLoaded` hears of each
 * model it loads (the panel keeps it until the next one, and deletes it when destroyed).
 */
export class ModelFilePanel {
  readonly element = el('div', 'mf-panel');
  readonly #ctx: Ctx;
  readonly #input = el('input');
  readonly #drop = el('div', 'mf-drop');
  readonly #message = new MessageLine('mf-message');
  readonly #details = el('div', 'mf-details');
  readonly #sentence = el('input');
  readonly #decode: DecodeView;
  #model: RemoteSeq2Seq | null = null;
  #info: AnyInfo | null = null;
  #seq = 0;
  readonly #testId: string;

  constructor(host: HTMLElement, ctx: Ctx, testId = 'mf') {
    this.#ctx = ctx;
    this.#testId = testId;
    const { t } = ctx;
    this.element.dataset.testid = testId;
    this.element.append(el('h3', undefined, t('mf.title')), el('p', 'translate-note', t('mf.intro')));
    this.#input.type = 'file';
    this.#input.accept = '.safetensors,.atlb,.model,application/octet-stream';
    this.#input.hidden = true;
    this.#input.dataset.testid = `${testId}-input`;
    this.#input.addEventListener('change', () => {
      const file = this.#input.files?.[0];
      if (file) void this.open(file);
      this.#input.value = '';
    });
    this.#drop.dataset.testid = `${testId}-drop`;
    this.#drop.tabIndex = 0;
    this.#drop.setAttribute('role', 'button');
    this.#drop.textContent = t('mf.drop');
    const choose = () => this.#input.click();
    this.#drop.addEventListener('click', choose);
    this.#drop.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        choose();
      }
    });
    this.#drop.addEventListener('dragover', (e) => {
      e.preventDefault();
      this.#drop.classList.add('mf-over');
    });
    this.#drop.addEventListener('dragleave', () => this.#drop.classList.remove('mf-over'));
    this.#drop.addEventListener('drop', (e) => {
      e.preventDefault();
      this.#drop.classList.remove('mf-over');
      const files = e.dataTransfer?.files;
      if (!files || files.length === 0) return;
      if (files.length > 1) return this.#message.show('error', t('mf.notOne'));
      void this.open(files[0]);
    });
    this.#message.element.dataset.testid = `${testId}-message`;
    this.#message.element.setAttribute('role', 'status');
    this.#details.dataset.testid = `${testId}-details`;
    this.#details.hidden = true;
    this.#sentence.type = 'text';
    this.#sentence.dataset.testid = `${testId}-sentence`;
    const go = button(t('mf.translate'), `${testId}-translate`, () => void this.#translate());
    this.#sentence.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void this.#translate();
    });
    const row = el('div', 'al-controls mf-row');
    row.append(field(t('mf.sentence'), this.#sentence), go);
    this.element.append(this.#drop, this.#input, this.#message.element, this.#details);
    const decodeHost = el('div', 'mf-decode');
    decodeHost.dataset.testid = `${testId}-decode`;
    decodeHost.hidden = true;
    this.#decode = new DecodeView(decodeHost, t, 'model-file-attention');
    retagDecode(decodeHost, testId);
    this.#details.append(row);
    this.element.append(decodeHost);
    host.append(this.element);
  }

  /** Reads `file` in the page and loads it in the worker; any problem shows inline. */
  async open(file: File): Promise<void> {
    const { t, lab } = this.#ctx;
    const seq = ++this.#seq;
    const name = file.name || 'model';
    if (file.size > MAX_MODEL_FILE_MIB * 1024 * 1024) {
      this.#message.show('error', fill(t('mf.tooLarge'), { name, size: (file.size / 2 ** 20).toFixed(0), limit: MAX_MODEL_FILE_MIB }));
      return;
    }
    this.#message.show('info', fill(t('mf.loading'), { name, size: kib(file.size) }));
    let model: RemoteSeq2Seq | null = null;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      model = await lab.loadSeq2Seq(bytes);
      const [info, vocabulary] = await Promise.all([model.info(), model.vocabulary()]);
      if (seq !== this.#seq) return void model.delete();
      await this.#model?.delete().catch(() => undefined);
      this.#model = model;
      this.#info = info as AnyInfo;
      this.#decode.clear(); // the last file's decoding is not this one's
      this.#show(this.#info, vocabulary);
      this.#message.show('ok', fill(t('mf.loaded'), { name, arch: this.#info.arch === 'transformer' ? 'Transformer' : String(this.#info.cell ?? 'rnn').toUpperCase(), parameters: info.parameterCount.toLocaleString('en-US') }));
      const chars = info.sourceTokenizer === 'chars';
      this.#sentence.value = sampleSentence(vocabulary.source, chars);
      await this.#translate();
    } catch (err) {
      if (model && model !== this.#model) void model.delete().catch(() => undefined);
      if (seq === this.#seq) this.#message.show('error', fill(t('mf.error'), { name, message: errorText(err) }));
    }
  }

  /** The loaded model (null before a file was opened). */
  get model(): RemoteSeq2Seq | null {
    return this.#model;
  }

  #show(info: AnyInfo, vocabulary: { source: string[]; target: string[] }): void {
    const { t } = this.#ctx;
    const table = el('table', 'mf-config');
    table.dataset.testid = `${this.#testId}-config`;
    table.append(el('caption', undefined, t('mf.config')));
    for (const [key, value] of configRows(info, t)) {
      const tr = el('tr');
      tr.append(el('th', undefined, key), el('td', undefined, value));
      table.append(tr);
    }
    const source = el('div', 'mf-vocabulary');
    source.dataset.testid = `${this.#testId}-vocab-source`;
    const count = (tokens: string[]) => tokens.filter((x) => !RESERVED.has(x)).length;
    source.append(el('p', 'translate-label', fill(t('mf.vocab.source'), { count: count(vocabulary.source) })), vocabList(vocabulary.source, t));
    const target = el('div', 'mf-vocabulary');
    target.dataset.testid = `${this.#testId}-vocab-target`;
    target.append(el('p', 'translate-label', fill(t('mf.vocab.target'), { count: count(vocabulary.target) })), vocabList(vocabulary.target, t));
    const row = this.#details.lastElementChild;
    this.#details.replaceChildren(table, source, target);
    if (row) this.#details.append(row);
    this.#details.hidden = false;
  }

  async #translate(): Promise<void> {
    const model = this.#model;
    const info = this.#info;
    if (!model || !info) return;
    const seq = this.#seq;
    const host = this.#decode.element.parentElement;
    try {
      const result = await model.translate(this.#sentence.value);
      if (seq !== this.#seq) return;
      // A Transformer's steps carry its attention rollout onto the source.
      const hasAttention = info.arch === 'transformer' || info.attention !== false;
      this.#decode.show(result, info.sourceTokenizer === 'chars' ? 'chars' : 'words', hasAttention);
      if (host) host.hidden = false;
    } catch (err) {
      if (seq === this.#seq) this.#message.show('error', fill(this.#ctx.t('mf.error'), { name: this.#sentence.value, message: errorText(err) }));
    }
  }

  destroy(): void {
    ++this.#seq;
    this.#decode.destroy();
    void this.#model?.delete().catch(() => undefined);
    this.#model = null;
    this.element.remove();
  }
}

/** "Download model (.safetensors)" and "Download model (this page's format)" for a model the caller owns. */
export class ModelDownloads {
  readonly element = el('div', 'al-controls mf-downloads');
  readonly #message = new MessageLine('mf-message');

  constructor(host: HTMLElement, ctx: Ctx, model: () => RemoteSeq2Seq | null, baseName: () => string, testId = 'mf-download') {
    const { t } = ctx;
    this.element.dataset.testid = testId;
    const save = async (options: SaveOptions, extension: string) => {
      const m = model();
      if (!m) return this.#message.show('info', t('mf.download.none'));
      try {
        const bytes = await m.save(options);
        const name = `${baseName()}.${extension}`;
        downloadBytes(bytes, name);
        this.#message.show('ok', fill(t('mf.download.done'), { name, size: kib(bytes.byteLength) }));
      } catch (err) {
        this.#message.show('error', fill(t('mf.download.error'), { message: errorText(err) }));
      }
    };
    this.#message.element.dataset.testid = `${testId}-message`;
    this.element.append(
      button(t('mf.download.safetensors'), `${testId}-safetensors`, () => void save({ format: 'safetensors' }, 'safetensors')),
      button(t('mf.download.atlb'), `${testId}-atlb`, () => void save({ format: 'atlb' }, 'atlb')),
      this.#message.element,
    );
    host.append(this.element);
  }
}
