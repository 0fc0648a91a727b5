// §5's generation, one character at a time: the prompt box, Next character, the text so far, the
// step's top candidates (the model's probability and the probability they are drawn with after
// temperature, top-k and top-p; the drawn character among them even when it ranks lower) and, in the
// chosen layer and head, every generated step's attention over the text before it: one row a step,
// so the causal mask shows as the upper triangle of zeros. Both figures are heatmaps (heatmap/heatmap.ts): every cell reaches
// mouse, keyboard, touch and screen reader. The two are linked: a row of the attention pointed at,
// clicked, tapped or walked to shows that step's candidates (the last step's otherwise).
import { Heatmap } from '../heatmap/heatmap';
import { CellSelection, link } from '../heatmap/heatmap-cells';
import { fill } from '../i18n';
import type { SectionContext } from '../section';
import type { GptSampleResult, GptStep } from '#types/gpt';
import { button, el, errorText, field, MessageLine, setFieldError, setOptions } from './dom';
import type { GptRun } from './gpt-run';
import { propDef } from '../state';
import { POEM_START, SAMPLE_CAP } from '../../../wasm/js/gpt-form.mjs';

const PROMPT = propDef('gpt_prompt');
/** The prompt of the run's samples when the reader's is not one the model can read. */
const DEFAULT_PROMPT = PROMPT.default;

/** A character as a label: a line break shown as ⏎. */
export function charLabel(c: string, newline: string): string {
  return c === '\n' ? newline : c;
}

/** The prompt's characters the model does not know, each once, in order. */
export function unknownChars(prompt: string, vocab: readonly string[]): string[] {
  const known = new Set(vocab);
  return [...new Set(Array.from(prompt).filter((c) => !known.has(c)))];
}

/** Characters Write the poem draws at most: as many as a sample (SAMPLE_CAP, docs/gpt.md). */
const WRITE_CAP = SAMPLE_CAP;

/** Candidates in the figure: the most likely, then the drawn one if it ranks lower (run.next reads more). */
const SHOWN_CANDIDATES = 5;

/** What the reader generated after a prompt: kept with the model over a change of language. */
export interface GeneratedText {
  readonly prompt: string;
  readonly generated: readonly string[];
  readonly steps: readonly { step: GptStep; first: number }[];
}

export class GptGenerate {
  readonly element = el('div', 'gpt-generate');
  readonly #ctx: SectionContext;
  #run: GptRun;
  readonly #prompt = el('input');
  readonly #text = el('p', 'gpt-text');
  readonly #line = new MessageLine('gpt-chosen');
  readonly #layer = el('select');
  readonly #head = el('select');
  readonly #candidates: Heatmap;
  readonly #attention: Heatmap;
  readonly #next: HTMLButtonElement;
  readonly #write: HTMLButtonElement;
  /** the generated characters after the prompt, and each step with where its keys start in the text */
  #generated: string[] = [];
  #steps: { step: GptStep; first: number }[] = [];
  /** the attention's cell whose row (a step) the candidates show: hovered, else selected; none: the last */
  readonly #row = new CellSelection();
  #busy = false;

  /** What Next and Write say instead of drawing while a settings box holds a refused value, else null. */
  readonly #refusedSettings: () => string | null;

  constructor(ctx: SectionContext, run: GptRun, refusedSettings: () => string | null) {
    this.#ctx = ctx;
    this.#run = run;
    this.#refusedSettings = refusedSettings;
    const { t, state } = ctx;
    this.#prompt.type = 'text';
    this.#prompt.className = 'gpt-prompt';
    this.#prompt.dataset.testid = 'gpt-prompt';
    this.#prompt.value = state.get('gpt_prompt');
    this.#prompt.lang = 'zh';
    this.#prompt.addEventListener('change', () => this.#onPrompt());
    this.#next = button(t('gpt.next'), 'gpt-next', () => void this.next());
    this.#write = button(t('gpt.write'), 'gpt-write', () => void this.write());
    const restart = button(t('gpt.restart'), 'gpt-restart', () => this.restart());
    this.#layer.dataset.testid = 'gpt-layer';
    this.#head.dataset.testid = 'gpt-head';
    this.#layer.addEventListener('change', () => state.set('gpt_layer', Number(this.#layer.value)));
    this.#head.addEventListener('change', () => state.set('gpt_head', Number(this.#head.value)));
    this.#text.dataset.testid = 'gpt-text';
    this.#text.lang = 'zh';
    this.#text.setAttribute('aria-label', t('gpt.gen.text'));
    const controls = el('div', 'al-controls');
    const promptField = field(t('gpt.field.prompt'), this.#prompt);
    promptField.classList.add('gpt-prompt-field');
    controls.append(promptField, this.#next, this.#write, restart);
    const figures = el('div', 'gpt-figures');
    const candidatesBox = el('div', 'gpt-figure');
    const attentionBox = el('div', 'gpt-figure');
    // titled by the step it shows (#drawCandidates), hidden until there is one
    this.#candidates = new Heatmap(candidatesBox, { id: 'gpt-candidates', title: '', fixedRange: [0, 1], digits: 3, t });
    const choose = el('div', 'al-controls gpt-choose');
    choose.append(field(t('gpt.field.layer'), this.#layer), field(t('gpt.field.head'), this.#head));
    attentionBox.append(choose);
    this.#attention = new Heatmap(attentionBox, { id: 'gpt-attention', title: '', fixedRange: [0, 1], t });
    // the pointer leaving keeps the clicked row; Escape (the keyboard's leave) lets it go too
    const same = <C>(cell: C) => cell;
    link(this.#row, this.#attention, same, same);
    this.#row.subscribe(() => this.#drawCandidates());
    figures.append(candidatesBox, attentionBox);
    this.element.append(el('h3', 'gpt-subtitle', t('gpt.gen.title')), controls, this.#text, this.#line.element, figures);
    this.#line.show('info', t('gpt.gen.none'));
    this.#drawText();
    this.#drawChoices();
  }

  /** The sampling settings of the state (temperature, top-k, top-p) and this step's seed. */
  #options(n: number) {
    const { state } = this.#ctx;
    return { temperature: state.get('gpt_temperature'), topK: state.get('gpt_top_k'), topP: state.get('gpt_top_p'), seed: (state.get('seed') + n) >>> 0, zeroHeads: this.zeroHeads() };
  }

  /** The heads the reader zeroed (gpt-heads.ts reads gpt_zero; a link naming no head of this model zeroes none, and says so there). */
  zeroHeads: () => [number, number][] = () => [];

  /** The prompt for the run's samples: the reader's if the model knows it, else the default. */
  prompt(): string {
    const prompt = this.#ctx.state.get('gpt_prompt');
    const vocab = this.#run.info?.vocab;
    return prompt && vocab && unknownChars(prompt, vocab).length === 0 ? prompt : DEFAULT_PROMPT;
  }

  /** Checks the prompt box against the model's characters: the message names the field and them. */
  #check(value: string): string | null {
    const { t } = this.#ctx;
    const label = t('gpt.field.prompt');
    if (value === '') return fill(t('field.empty'), { label });
    // The state refuses a longer prompt; saying so here keeps the box and the text in step.
    const n = Array.from(value).length;
    if (n > PROMPT.maxLength) return fill(t('field.tooLong'), { label, max: PROMPT.maxLength, n });
    const vocab = this.#run.info?.vocab;
    const unknown = vocab ? unknownChars(value, vocab) : [];
    if (unknown.length > 0) return fill(t('gpt.error.unknown'), { label, chars: unknown.map((c) => `“${c}”`).join(' ') });
    return null;
  }

  #onPrompt(): void {
    const value = this.#prompt.value.replace(/\r/g, '');
    const message = this.#check(value);
    setFieldError(this.#prompt, message);
    if (message !== null) return; // the model and the text so far stay as they are
    if (value === this.#ctx.state.get('gpt_prompt')) return; // the same prompt keeps its text
    this.#ctx.state.set('gpt_prompt', value);
    this.restart();
  }

  /** The model is known: a prompt from the link with unknown characters is named now. */
  checkPrompt(): void {
    setFieldError(this.#prompt, this.#check(this.#prompt.value));
  }

  restart(): void {
    this.#generated = [];
    this.#steps = [];
    this.#row.select(null);
    this.#line.show('info', this.#ctx.t('gpt.gen.none'));
    this.#drawText();
    this.#drawChoices();
    this.element.dataset.generated = '0';
  }

  /** Draws the next character; refused settings leave the text as it is. */
  async next(): Promise<void> {
    await this.#generate(1);
  }

  /**
   * Writes on to the end of the poem (the blank line that ends it) or WRITE_CAP characters, in one
   * request: every step kept as Next keeps it, the figures drawn once at the end.
   */
  async write(): Promise<void> {
    await this.#generate(WRITE_CAP);
  }

  async #generate(count: number): Promise<void> {
    if (this.#busy) return;
    const { t } = this.#ctx;
    const promptProblem = this.#check(this.#prompt.value);
    if (promptProblem !== null) {
      // said beside the buttons too: the box may be off screen, and a press must not look ignored
      this.checkPrompt();
      this.#line.show('error', promptProblem);
      return;
    }
    // A refused temperature, top-k or top-p would otherwise draw silently with the last accepted one.
    const refused = this.#refusedSettings();
    if (refused !== null) {
      this.#line.show('error', refused);
      return;
    }
    this.#busy = true;
    this.#next.disabled = true;
    this.#write.disabled = true;
    this.#row.select(null); // the new step is the one to show
    try {
      const text = this.#context();
      const options = this.#options(this.#generated.length);
      const result: GptSampleResult = await this.#run.next(text, options, count);
      // the steps' keys are the text's last ones (the run reads at most the model's context)
      let length = Array.from(text).length;
      for (const step of result.steps) {
        this.#steps.push({ step, first: length - step.keys });
        this.#generated.push(step.char);
        length += 1;
        // a poem ends at a blank line: what the model draws after it belongs to the next poem
        if (count > 1 && step.char === '\n' && (this.#generated.at(-2) ?? text.at(-1)) === '\n') break;
      }
      this.#showChosen(count > 1 ? length - Array.from(text).length : 0);
    } catch (err) {
      this.#line.show('error', `${t('error.prefix')}${errorText(err)}`);
    } finally {
      this.#busy = false;
      this.#next.disabled = false;
      this.#write.disabled = false;
    }
    this.#drawText();
    this.#drawChoices();
  }

  /** The line under the text: how many characters Write the poem drew (`written`, 0: Next), the last one and its probability. */
  #showChosen(written = 0): void {
    const { t } = this.#ctx;
    const step = this.#steps.at(-1)!.step;
    const wrote = written > 0 ? fill(t('gpt.gen.wrote'), { count: written, cap: WRITE_CAP }) : '';
    this.#line.show('ok', wrote + fill(t('gpt.gen.chosen'), { n: this.#generated.length, char: charLabel(step.char, t('gpt.newline')), p: step.prob.toFixed(3) }));
    this.element.dataset.generated = String(this.#generated.length);
  }

  /** The text generated so far, for the section mounted next (parked with the model). */
  saved(): GeneratedText {
    return { prompt: this.#ctx.state.get('gpt_prompt'), generated: [...this.#generated], steps: [...this.#steps] };
  }

  /** Takes up the text an earlier mount generated with the same model, if it followed this prompt. */
  restore(saved: GeneratedText): void {
    if (saved.generated.length === 0 || saved.prompt !== this.#ctx.state.get('gpt_prompt')) return;
    this.#generated = [...saved.generated];
    this.#steps = [...saved.steps];
    this.#showChosen();
    this.#drawText();
    this.#drawChoices();
  }

  /**
   * What the model reads: the prompt and the characters drawn after it, after the blank line that
   * every poem it trained on starts after (its windows start there: docs/gpt.md), unless the prompt
   * starts with a line break of its own. The attention figure shows that blank line too.
   */
  #context(): string {
    const prompt = this.#ctx.state.get('gpt_prompt');
    return (prompt.startsWith('\n') ? '' : POEM_START) + prompt + this.#generated.join('');
  }

  #drawText(): void {
    const prompt = el('span', 'gpt-text-prompt', this.#ctx.state.get('gpt_prompt'));
    const generated = el('span', 'gpt-text-generated', this.#generated.join(''));
    this.#text.replaceChildren(prompt, generated);
  }

  /** The settings changed (layer, head, the model's size): the selects and the attention redraw. */
  #drawChoices(): void {
    const { t, state } = this.#ctx;
    const layers = this.#run.info?.config.layers ?? 2;
    const heads = this.#run.info?.config.heads ?? 4;
    const layer = Math.min(state.get('gpt_layer'), layers);
    const head = Math.min(state.get('gpt_head'), heads);
    setOptions(this.#layer, Array.from({ length: layers }, (_, i) => [String(i + 1), String(i + 1)] as const), String(layer));
    setOptions(this.#head, Array.from({ length: heads }, (_, i) => [String(i + 1), String(i + 1)] as const), String(head));
    this.#attention.title = fill(t('gpt.attention'), { layer, head });
    const last = this.#steps.at(-1)?.step;
    this.#candidates.element.hidden = !last;
    this.#attention.element.hidden = !last;
    this.element.querySelector('.gpt-choose')?.toggleAttribute('hidden', !last);
    if (!last) return;
    const nl = t('gpt.newline');
    this.#drawCandidates();
    // Rows: the character each step read (its query, which attends to itself and the characters
    // before it), in order; columns: the text but the last character, which no step has read yet.
    // A row is 0 right of its query (the mask) and left of its window.
    const text = Array.from(this.#context());
    const cols = text.length - 1;
    const values = new Array<number>(this.#steps.length * cols).fill(0);
    this.#steps.forEach(({ step, first }, row) => {
      const [, nHeads, keys] = step.attention.shape;
      const offset = ((layer - 1) * nHeads + (head - 1)) * keys;
      for (let k = 0; k < keys; k++) values[row * cols + first + k] = step.attention.data[offset + k];
    });
    this.#attention.update({
      rows: this.#steps.length,
      cols,
      values,
      rowLabels: this.#steps.map(({ step, first }) => charLabel(text[first + step.keys - 1], nl)),
      colLabels: text.slice(0, cols).map((c) => charLabel(c, nl)),
      rowLang: 'zh',
      colLang: 'zh',
    });
  }

  /** The candidates of the step the attention's row names (hovered, selected, else the last). */
  #drawCandidates(): void {
    const { t } = this.#ctx;
    const index = Math.min(this.#row.current?.row ?? this.#steps.length - 1, this.#steps.length - 1);
    const step = this.#steps[index]?.step;
    if (!step) return;
    const nl = t('gpt.newline');
    // A draw outside the first few is shown after them, so the reader always finds it.
    const shown = step.top.slice(0, SHOWN_CANDIDATES);
    const drawn = shown.some((c) => c.id === step.token) ? [] : step.top.filter((c) => c.id === step.token);
    const top = [...shown, ...drawn];
    this.#candidates.title = fill(t('gpt.candidates.at'), { n: index + 1, char: charLabel(step.char, nl) });
    this.#candidates.update({
      rows: 2,
      cols: top.length,
      values: [...top.map((c) => c.prob), ...top.map((c) => c.sampleProb)],
      rowLabels: [t('gpt.candidates.model'), t('gpt.candidates.drawn')],
      colLabels: top.map((c) => charLabel(c.char, nl)),
      colLang: 'zh',
    });
    this.element.dataset.candidatesStep = String(index + 1);
  }

  /** The state changed: layer, head or prompt from the link or back/forward. */
  onState(changed: readonly string[]): void {
    if (changed.includes('gpt_prompt') && this.#prompt.value !== this.#ctx.state.get('gpt_prompt')) {
      this.#prompt.value = this.#ctx.state.get('gpt_prompt');
      setFieldError(this.#prompt, null);
      this.restart();
    }
    if (changed.includes('gpt_layer') || changed.includes('gpt_head')) this.#drawChoices();
  }

  /** A new model (Reset): what was drawn belongs to the old one. */
  setRun(run: GptRun): void {
    this.#run = run;
    this.restart();
  }

  destroy(): void {
    this.#candidates.destroy();
    this.#attention.destroy();
  }
}
