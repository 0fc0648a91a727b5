// §3.3's sentence panel: the text box (s2s_text), the example buttons of the current task, and the
// model's source vocabulary as clickable words (a click appends the word, or the character for the
// dates task). Writes only through state.set; shows state errors (too long, control characters).
import type { SectionContext } from '../section';
import { button, el, errorText, field } from './dom';
import { DATE_EXAMPLES, NOTE_SENTENCES } from './translate-strings';

const DEFAULT_TEXT = NOTE_SENTENCES[0];

export class SentenceInput {
  readonly element = el('div', 'tr-input');
  readonly #ctx: SectionContext;
  readonly #text = el('input', 'tr-text');
  readonly #examples = el('div', 'tr-examples');
  readonly #vocab = el('div', 'tr-vocab');
  readonly #error = el('p', 'tr-error');

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    this.#text.type = 'text';
    this.#text.dataset.testid = 's2s-text';
    this.#text.maxLength = 200;
    this.#text.addEventListener('change', () => this.set(this.#text.value));
    this.#text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.set(this.#text.value);
    });
    const textField = field(ctx.t('tr.sentence'), this.#text, ctx.state.isHidden('s2s_text'));
    this.element.append(textField, this.#examples, this.#vocab, this.#error);
    host.append(this.element);
  }

  /** The sentence to translate: the setting, or a date when the dates task still has the note's default. */
  sourceText(): string {
    const text = this.#ctx.state.get('s2s_text');
    return this.#ctx.state.get('s2s_task') === 'dates' && text === DEFAULT_TEXT ? DATE_EXAMPLES[0] : text;
  }

  /** The first example of a task (what a task switch puts in the box). */
  static firstExample(task: 'note' | 'dates'): string {
    return task === 'dates' ? DATE_EXAMPLES[0] : DEFAULT_TEXT;
  }

  set(text: string): void {
    try {
      this.#ctx.state.set('s2s_text', text);
      this.showError('');
    } catch (err) {
      this.showError(`${this.#ctx.t('error.prefix')}${errorText(err)}`);
    }
  }

  showError(text: string): void {
    this.#error.textContent = text;
  }

  /** Re-reads the box from the state and lists the task's examples. */
  sync(): void {
    this.#text.value = this.sourceText();
    const list = this.#ctx.state.get('s2s_task') === 'dates' ? DATE_EXAMPLES : NOTE_SENTENCES;
    this.#examples.replaceChildren(
      el('span', 'tr-label', this.#ctx.t('tr.examples')),
      ...list.map((s, i) => button(s, `s2s-example-${i}`, () => this.set(s))),
    );
  }

  /** The model's source tokens as buttons; `chars`: the dates task's character tokens. */
  showVocabulary(tokens: readonly string[], chars: boolean): void {
    const words = tokens.map((tok) => {
      const b = button(tok === ' ' ? '␣' : tok, 's2s-vocab-word', () => {
        const current = this.#text.value;
        this.set(chars || current.trim() === '' ? current + tok : `${current.trimEnd()} ${tok}`);
      });
      b.classList.add('tr-vocab-word');
      return b;
    });
    this.#vocab.replaceChildren(el('span', 'tr-label', this.#ctx.t('tr.vocab')), ...words);
  }
}
