// §4's sentence box and its examples, bound to transformer_text: a value over the state's limits is named
// under the box in the reader's words (not the URL key) and stays in the box; the model and the
// last translation are left alone until the reader fixes it. The model translates as the reader
// types (after a short pause), not only when the box loses focus: a box that changes while the
// translation under it stays the same looks frozen. An empty box says, under it, what to type.
import { fill } from '../i18n';
import type { SectionContext } from '../section';
import { propDef } from '../state';
import { button, el, errorText, field, MessageLine, namedFieldMessage, setFieldError } from './dom';
import { TRANSFORMER_EXAMPLES } from './transformer-recipes';

/** the longest sentence the state table keeps (transformer_text) */
const TEXT_LIMIT = propDef('transformer_text').maxLength;
/** A pause in typing this long translates what is in the box. */
const TYPING_PAUSE_MS = 350;

export class TransformerSentence {
  readonly #ctx: SectionContext;
  readonly #text = el('input');
  readonly #examples = el('div', 'transformer-examples');
  /** what to type, while the box is empty */
  readonly #note = new MessageLine('transformer-text-note');
  #typing: ReturnType<typeof setTimeout> | undefined;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    this.#text.type = 'text';
    this.#text.spellcheck = false;
    this.#text.dataset.testid = 'transformer-text';
    this.#text.value = state.get('transformer_text');
    this.#text.addEventListener('input', () => {
      clearTimeout(this.#typing);
      this.#typing = setTimeout(() => this.#onText(), TYPING_PAUSE_MS);
    });
    this.#text.addEventListener('change', () => this.#onText());
    const textField = field(t('transformer.text'), this.#text, state.isHidden('transformer_text'));
    textField.classList.add('al-field-wide');
    this.#examples.hidden = state.isHidden('transformer_text');
    this.#note.element.dataset.testid = 'transformer-text-note';
    host.append(textField, this.#note.element, this.#examples);
  }

  /** The box follows the state, unless it holds a rejected value. */
  sync(): void {
    const text = this.#ctx.state.get('transformer_text');
    if (this.#text.value !== text && this.#text.getAttribute('aria-invalid') !== 'true') this.#text.value = text;
  }

  /** A problem with the sentence named under the box (null clears it). */
  showError(message: string | null): void {
    const { t } = this.#ctx;
    setFieldError(this.#text, message === null ? null : namedFieldMessage(t, t('transformer.text.short'), message));
  }

  /** Says what to type for `task` (null: the box has something, nothing to say). */
  askFor(task: keyof typeof TRANSFORMER_EXAMPLES | null): void {
    this.#note.show('info', task === null ? '' : this.#ctx.t(task === 'dates' ? 'transformer.empty.dates' : 'transformer.empty'));
  }

  /** The task's example sentences, as buttons. */
  showExamples(task: keyof typeof TRANSFORMER_EXAMPLES): void {
    const { t } = this.#ctx;
    this.#examples.replaceChildren(
      el('span', 'transformer-label', t('transformer.examples')),
      ...TRANSFORMER_EXAMPLES[task].map((text) => {
        const b = button(text, 'transformer-example', () => {
          this.showError(null);
          this.#text.value = text;
          this.#ctx.state.set('transformer_text', text);
        });
        b.classList.add('transformer-example');
        b.lang = task === 'dates' ? 'en' : 'zh'; // an example input, in its own language
        return b;
      }),
    );
  }

  destroy(): void {
    clearTimeout(this.#typing);
  }

  #onText(): void {
    clearTimeout(this.#typing);
    const { t, state } = this.#ctx;
    const text = this.#text.value;
    const length = [...text].length;
    // the state's limits, in the reader's words (the state's own message names the URL key)
    const problem =
      length > TEXT_LIMIT ? fill(t('transformer.error.long'), { max: TEXT_LIMIT, n: length }) : /[\u0000-\u001f\u007f]/u.test(text) ? t('transformer.error.control') : null;
    if (problem !== null) return this.showError(problem);
    try {
      state.set('transformer_text', text);
    } catch (err) {
      this.showError(errorText(err).replace(/^transformer_text: /u, ''));
    }
  }
}
