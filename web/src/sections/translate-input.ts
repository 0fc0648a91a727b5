// §3.3's sentence panel: the text box (translate_text), the example buttons of the current task, and the
// model's source vocabulary as clickable words (a click appends the word, or the character for the
// dates task). Writes only through state.set; shows state errors (too long, control characters).
import type { SectionContext } from '../section';
import { button, el, errorText, field, MessageLine } from './dom';
import { fill } from '../i18n';
import { propDef } from '../state';
import { DATE_EXAMPLES, NOTE_SENTENCES } from './translate-strings';
import { splitSuggestion } from './note-words';
import { Panel } from './panel';
import { RovingFocus } from './keyboard';

const DEFAULT_TEXT = NOTE_SENTENCES[0];
const TEXT = propDef('translate_text');
/** how long typing pauses before the box's text is translated: a word at a time, not a key */
const TYPING_PAUSE_MS = 500;

export class SentenceInput {
  readonly element = el('div', 'translate-input');
  readonly #ctx: SectionContext;
  /** a text area, so a long sentence wraps on a phone instead of running out of the box */
  readonly #text = el('textarea', 'translate-text');
  readonly #examples = el('div', 'translate-examples');
  readonly #vocab = el('div', 'translate-vocab');
  /** the vocabulary's buttons (a hundred or more), rendered when the reader opens this panel */
  readonly #words: Panel;
  #tokens: { list: readonly string[]; chars: boolean } | null = null;
  /** the examples and the vocabulary are one Tab stop each, arrow keys inside */
  readonly #examplesFocus = new RovingFocus(this.#examples, () => [Array.from(this.#examples.querySelectorAll<HTMLElement>('button'))]);
  readonly #vocabFocus = new RovingFocus(this.#vocab, () => [Array.from(this.#vocab.querySelectorAll<HTMLElement>('button'))]);
  readonly #error = el('p', 'translate-error');
  /** what the model made of the sentence: unknown words, a spaced form to try, an empty box */
  readonly #note = new MessageLine('translate-input-note');
  #heldOut: string[] = [];
  /** the pause in typing after which the box's text is translated */
  #typing: ReturnType<typeof setTimeout> | undefined;
  /** the message under the box is set()'s own refusal (too long for the setting), not the section's */
  #refusedHere = false;
  /** the reader typed or picked the sentence here: it is used as it is, even if it is the default */
  #chosen = false;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    this.#text.rows = 1;
    this.#text.dataset.testid = 'translate-text';
    this.#text.addEventListener('change', () => this.set(this.#text.value));
    // a paste or a pause in typing translates too, not only Enter or leaving the box
    this.#text.addEventListener('input', () => {
      clearTimeout(this.#typing);
      this.#typing = setTimeout(() => this.set(this.#text.value), TYPING_PAUSE_MS);
    });
    this.#text.addEventListener('keydown', (e) => {
      // one sentence: Enter translates it (no new line)
      if (e.key === 'Enter') {
        e.preventDefault();
        clearTimeout(this.#typing);
        this.set(this.#text.value);
      }
    });
    const textField = field(ctx.t('translate.sentence'), this.#text, ctx.state.isHidden('translate_text'));
    this.#note.element.dataset.testid = 'translate-input-note';
    this.#error.dataset.testid = 'translate-input-error';
    this.#words = new Panel(ctx.state, 'translate_open_words', ctx.t('translate.panel.words'), 'translate-panel-words');
    this.#words.body.append(this.#vocab);
    void this.#words.opened.then(() => this.#renderVocabulary());
    this.element.append(textField, this.#examples, this.#error, this.#note.element, this.#words.element);
    host.append(this.element);
  }

  destroy(): void {
    clearTimeout(this.#typing);
    this.#words.destroy();
  }

    /**
   * The sentence to translate: the setting, or, while it is still the state's default, the task's
   * first example (a date; for zh-en a long held-out sentence once the model has listed them).
   */
  sourceText(): string {
    const text = this.#ctx.state.get('translate_text');
    if (text !== DEFAULT_TEXT || this.#chosen) return text;
    const task = this.#ctx.state.get('translate_task');
    if (task === 'dates') return DATE_EXAMPLES[0];
    if (task === 'zh-en' && this.#heldOut.length > 0) return this.#heldOut[0];
    return text;
  }

  /** The first example of a task (what a task switch puts in the box; zh-en: see sourceText). */
  static firstExample(task: 'zh-en' | 'note' | 'dates'): string {
    return task === 'dates' ? DATE_EXAMPLES[0] : DEFAULT_TEXT;
  }

  /** zh-en: held-out sentences to offer, longest first (the first is the default sentence). */
  setHeldOut(sentences: readonly string[]): void {
    this.#heldOut = [...sentences];
    this.sync();
  }

  /** A task switch: the box shows the new task's example again. */
  forgetChoice(): void {
    this.#chosen = false;
  }

  set(text: string): void {
    const { t, state } = this.#ctx;
    // the box takes any length (a cut paste would translate other words than the reader's); the
    // setting's limit is said here
    const n = Array.from(text).length;
    if (n > TEXT.maxLength) {
      this.#refusedHere = true;
      return this.showError(fill(t('field.tooLong'), { label: t('translate.sentence'), max: TEXT.maxLength, n }));
    }
    // the sentence shown already (Enter, then the pause in typing): the section's message on it stands
    const same = this.#chosen && text === state.get('translate_text');
    this.#chosen = true;
    if (same && !this.#refusedHere) return;
    this.#refusedHere = false;
    // cleared first: setting the text translates it at once, and that may say why it cannot
    this.showError('');
    try {
      state.set('translate_text', text);
    } catch (err) {
      this.showError(`${t('error.prefix')}${errorText(err)}`);
    }
  }

  showError(text: string): void {
    this.#error.textContent = text;
  }

  showNote(kind: 'info' | 'error', text: string): void {
    this.#note.show(kind, text);
  }

  /** Names the unknown words inline; offers the spaced form of words typed without spaces. */
  showUnknown(unknown: readonly string[], text: string, chars: boolean, vocabulary: readonly string[]): void {
    const { t } = this.#ctx;
    if (unknown.length === 0) {
      this.#note.show('info', '');
      return;
    }
    const words = [...new Set(unknown)].map((w) => `“${w}”`).join(this.#ctx.lang === 'zh' ? '' : ', ');
    this.#note.show('error', fill(t(chars ? 'translate.unknownChars' : 'translate.unknownWords'), { words }));
    const split = chars ? null : splitSuggestion(text, vocabulary);
    if (split) {
      const hint = el('span', 'translate-split', ` ${fill(t('split.hint'), { text: split })} `);
      this.#note.element.append(hint, button(t('split.apply'), 'translate-split', () => this.set(split)));
    }
  }

  /** Re-reads the box from the state and lists the task's examples. */
  sync(): void {
    this.#text.value = this.sourceText();
    const task = this.#ctx.state.get('translate_task');
    const list = task === 'dates' ? DATE_EXAMPLES : task === 'zh-en' ? this.#heldOut : NOTE_SENTENCES;
    this.#examplesFocus.update(() =>
      this.#examples.replaceChildren(
        el('span', 'translate-label', this.#ctx.t('translate.examples')),
        ...list.map((s, i) => button(s, `translate-example-${i}`, () => this.set(s))),
      ),
    );
  }

  /** The model's source tokens as buttons; `chars`: the dates task's character tokens. */
  showVocabulary(tokens: readonly string[], chars: boolean): void {
    this.#tokens = { list: tokens, chars };
    if (this.#words.wasOpened) this.#renderVocabulary();
  }

  #renderVocabulary(): void {
    if (!this.#tokens) return;
    const { list: tokens, chars } = this.#tokens;
    const words = tokens.map((tok) => {
      const b = button(tok === ' ' ? '␣' : tok, 'translate-vocab-word', () => {
        const current = this.#text.value;
        this.set(chars || current.trim() === '' ? current + tok : `${current.trimEnd()} ${tok}`);
      });
      b.classList.add('translate-vocab-word');
      return b;
    });
    this.#vocabFocus.update(() => this.#vocab.replaceChildren(el('span', 'translate-label', this.#ctx.t('translate.vocab')), ...words));
  }
}
