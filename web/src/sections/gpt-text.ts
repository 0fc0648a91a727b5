// §5's own text: the reader pastes a text or chooses a file, and the GPT trains on it instead of
// the Tang poems. Checked here before the worker sees it (empty, too big, not text, too few
// distinct characters, too few poems to hold out a share), each error in the field's label; the
// session's own refusals come back the same way, and the model trained so far is kept on error.
import { fill } from '../i18n';
import type { SectionContext } from '../section';
import { button, el, errorText, field, setFieldError } from './dom';

/** The largest text the page takes: the session's limit (docs/gpt.md). */
const OWN_TEXT_MAX_MIB = 1;
export const OWN_TEXT_MAX_BYTES = OWN_TEXT_MAX_MIB * 1024 * 1024;
/** The context of the recipe: a training text must be longer than one block of it. */
const MIN_CHARACTERS = 64;

/** Null when `text` can be trained on, else the message naming the field by `label`. */
export function checkOwnText(t: (key: string) => string, label: string, text: string): string | null {
  if (text.trim() === '') return fill(t('gpt.own.empty'), { label });
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > OWN_TEXT_MAX_BYTES) return fill(t('gpt.own.tooBig'), { label, bytes: bytes.toLocaleString('en'), max: `${OWN_TEXT_MAX_MIB} MiB` });
  if (text.includes('\0')) return fill(t('gpt.own.notText'), { label });
  const chars = Array.from(text.trim());
  if (new Set(chars.filter((c) => !/\s/u.test(c))).size < 2) return fill(t('gpt.own.distinct'), { label });
  const poems = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/).filter((p) => p.trim() !== '').length;
  if (poems < 2 || chars.length < MIN_CHARACTERS) return fill(t('gpt.own.short'), { label, min: MIN_CHARACTERS, poems });
  return null;
}

export class GptOwnText {
  readonly element = el('div', 'gpt-own');
  readonly #ctx: SectionContext;
  readonly #text = el('textarea', 'lab-input gpt-own-text');
  readonly #file = el('input');
  readonly #use: HTMLButtonElement;
  readonly #textLabel: string;
  readonly #fileLabel: string;

  /** `train(text)` starts a run on the text; it rejects with the session's refusal. */
  constructor(ctx: SectionContext, train: (text: string) => Promise<void>, back: () => void) {
    this.#ctx = ctx;
    const { t } = ctx;
    this.#textLabel = t('gpt.own.field');
    this.#fileLabel = t('gpt.own.file');
    this.#text.dataset.testid = 'gpt-own-text';
    this.#text.rows = 4;
    this.#text.lang = 'zh';
    this.#text.addEventListener('input', () => setFieldError(this.#text, null));
    this.#file.type = 'file';
    this.#file.accept = '.txt,text/plain';
    this.#file.dataset.testid = 'gpt-own-file';
    this.#file.addEventListener('change', () => void this.#read());
    this.#use = button(t('gpt.own.use'), 'gpt-own-use', () => void this.#train(train));
    const tang = button(t('gpt.own.back'), 'gpt-own-back', () => {
      setFieldError(this.#text, null);
      back();
    });
    const buttons = el('div', 'al-controls');
    buttons.append(this.#use, tang);
    this.element.append(el('p', 'gpt-note', t('gpt.own.intro')), field(this.#textLabel, this.#text), field(this.#fileLabel, this.#file), buttons);
  }

  /** The text in the box (a change of language carries it to the next mount). */
  get text(): string {
    return this.#text.value;
  }

  set text(value: string) {
    this.#text.value = value;
  }

  /** A chosen file fills the box, once it is known to be text within the limit; else the box keeps its text. */
  async #read(): Promise<void> {
    const file = this.#file.files?.[0];
    setFieldError(this.#file, null);
    if (!file) return;
    // the file reader (its UTF-8 and NUL checks) comes with the first file chosen, not with the page
    const { readTextFile } = await import('./text-file');
    const read = await readTextFile(file, this.#ctx.lang, this.#fileLabel, OWN_TEXT_MAX_MIB);
    this.#file.value = ''; // the same file chosen again is read again
    if ('error' in read) return setFieldError(this.#file, read.error);
    this.#text.value = read.text;
    setFieldError(this.#text, null);
  }

  async #train(train: (text: string) => Promise<void>): Promise<void> {
    const { t } = this.#ctx;
    const text = this.#text.value;
    const message = checkOwnText(t, this.#textLabel, text);
    setFieldError(this.#text, message);
    if (message !== null) return;
    this.#use.disabled = true;
    try {
      await train(text);
    } catch (err) {
      setFieldError(this.#text, `${this.#textLabel}: ${errorText(err)}`);
    } finally {
      this.#use.disabled = false;
    }
  }
}
