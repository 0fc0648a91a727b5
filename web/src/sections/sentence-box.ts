// The sentence box of §3.5 and §3.6 (self.ts, multihead.ts): a typed sentence becomes the state's
// text only when the views can show it; otherwise it stays in the box, the box is marked invalid
// and the section's message line names the problem, and the last result stays on screen. A word
// typed without spaces that splits into the note's words ("我爱我") is offered spaced, as §3.3 does.
import { fill } from '../i18n';
import type { SectionContext } from '../section';
import { button, el, errorText, type LatestOnly, type MessageLine, namedFieldMessage, setFieldError } from './dom';
import { NOTE_WORDS, splitSuggestion } from './note-words';
import { sentenceErrorText } from './self-strings';
import { tokenize } from './self-tokens';

export interface SentenceBoxParts {
  readonly ctx: SectionContext;
  /** the section's string prefix: `${prefix}.error.text`, `${prefix}.text.short` */
  readonly prefix: 'self' | 'multihead';
  /** the state's text setting the box edits */
  readonly key: 'self_text' | 'multihead_text';
  readonly input: HTMLInputElement;
  readonly message: MessageLine;
  /** the section root, whose data-state says "error" while a problem is shown */
  readonly root: HTMLElement;
  /** the section's pending computation, cancelled when the sentence cannot be shown */
  readonly latest: LatestOnly;
}

export class SentenceBox {
  readonly #p: SentenceBoxParts;

  constructor(parts: SentenceBoxParts) {
    this.#p = parts;
  }

  /** The tokens of `text`, or null after the problem was shown (and the pending work cancelled). */
  tokens(text: string): string[] | null {
    try {
      return tokenize(text);
    } catch (err) {
      this.#p.latest.cancel();
      this.showError(sentenceErrorText(this.#p.ctx.t, err, this.#p.prefix) ?? errorText(err), true);
      return null;
    }
  }

  /** The box's input handler: a sentence the views can show goes into the state. */
  onInput(): void {
    const { ctx, input, key, prefix } = this.#p;
    if (this.tokens(input.value) === null) return;
    try {
      ctx.state.set(key, input.value);
    } catch (err) {
      // too long, or control characters: the state refuses it; say why and keep the last result
      this.showError(fill(ctx.t(`${prefix}.error.text`), { reason: errorText(err) }), true);
    }
  }

  /**
   * After a result of the state's sentence is shown: if a word of it splits into the note's words
   * ("我爱我" → "我 爱 我"), the message line asks whether the spaced form was meant, with a button.
   */
  offerSplit(): void {
    const { ctx, input, key, message, prefix } = this.#p;
    const split = splitSuggestion(ctx.state.get(key), NOTE_WORDS);
    if (!split) return;
    const use = button(ctx.t('split.apply'), `${prefix}-split`, () => {
      input.value = split;
      this.onInput();
    });
    message.element.append(el('span', undefined, ` ${fill(ctx.t('split.hint'), { text: split })} `), use);
  }

  /** `inText`: the sentence box caused it, so the box is marked and the message names it */
  showError(text: string, inText = false): void {
    const { ctx, input, message, prefix, root } = this.#p;
    // the last result stays on screen: say which sentence it is
    message.show('error', `${ctx.t('error.prefix')}${text.replace(/[.。]$/, '')}${fill(ctx.t(`${prefix}.kept`), { text: ctx.state.get(this.#p.key) })}`);
    if (inText) setFieldError(input, namedFieldMessage(ctx.t, ctx.t(`${prefix}.text.short`), text));
    root.dataset.state = 'error';
  }
}
