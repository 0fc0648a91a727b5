// §2 The core idea of attention (the note's 关注关键信息): one sentence, several questions, and each
// question attends to different words. Words and questions are vectors over five features a
// reader would use (person, place, time, action, thing), fixed so that the numbers can be read;
// the weights are the core's scaled dot-product attention (lab.attention, score 'scaled').
import { Heatmap, HEATMAP_CSS } from '../heatmap/heatmap';
import { fill, type Lang } from '../i18n';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import { limits, type PropName } from '../state';
import css from './idea.css?inline';
import { checkNumber, el, errorText, field, LatestOnly, MessageLine, mountRoot, narration, setFieldError, tryThis } from './dom';
import { IDEA_STRINGS } from './idea-strings';

export const IDEA_FEATURES = ['person', 'place', 'time', 'action', 'thing'] as const;
const D = IDEA_FEATURES.length;
/** length of every word's main feature: with the default question length 4, q·k/√5 ≈ 3.6, weight ≈ 0.9 */
const KEY_LENGTH = 2;

interface Word {
  text: Record<Lang, string>;
  /** features (person, place, time, action, thing) before KEY_LENGTH */
  features: readonly number[];
}

const WORDS: Record<string, Word> = {
  kage: { text: { en: 'KaGe', zh: '咖哥' }, features: [1, 0, 0, 0, 0] },
  reads: { text: { en: 'reads', zh: '读' }, features: [0, 0, 0, 1, 0.2] },
  novel: { text: { en: 'novels', zh: '小说' }, features: [0, 0, 0, 0.2, 1] },
  park: { text: { en: 'park', zh: '公园' }, features: [0, 1, 0, 0, 0] },
  saturday: { text: { en: 'Saturday', zh: '周六' }, features: [0, 0, 1, 0, 0] },
};
/** the sentence in each language's own word order */
const ORDER: Record<Lang, readonly string[]> = {
  en: ['kage', 'reads', 'novel', 'park', 'saturday'],
  zh: ['kage', 'saturday', 'park', 'reads', 'novel'],
};
/** the fixed questions: unit directions, scaled by the idea_strength setting */
const QUESTIONS: readonly { key: string; direction: readonly number[] }[] = [
  { key: 'idea.q.who', direction: [1, 0, 0, 0, 0] },
  { key: 'idea.q.where', direction: [0, 1, 0, 0, 0] },
  { key: 'idea.q.when', direction: [0, 0, 1, 0, 0] },
  // 做什么 / "Doing what?": the action, so that a sharp question picks "reads" alone
  { key: 'idea.q.doing', direction: [0, 0, 0, 1, 0] },
];

const WATCHED: readonly PropName[] = ['idea_strength', 'idea_q'];

/** The attention inputs of §2: keys (5 × 5) in sentence order and queries (5 × 5), row-major. */
export function ideaInputs(lang: Lang, strength: number, yours: readonly number[]): { keys: number[]; queries: number[]; words: string[] } {
  const order = ORDER[lang];
  const keys = order.flatMap((id) => WORDS[id].features.map((f) => f * KEY_LENGTH));
  const mine = yours.length === D ? yours : new Array<number>(D).fill(0);
  const queries = [...QUESTIONS.flatMap((q) => q.direction.map((x) => x * strength)), ...mine];
  return { keys, queries, words: order.map((id) => WORDS[id].text[lang]) };
}

/** weights closer than this read as a tie (they print alike at two decimals) */
const TIE = 0.005;

/**
 * What one question's row of weights says, in words: the word it attends to most, the words it
 * splits its weight between when they tie, or that it weighs every word alike (a question with no
 * content).
 */
export function answerOf(t: (key: string) => string, question: string, words: readonly string[], row: ArrayLike<number>): string {
  const top = Math.max(...Array.from(row));
  const tied = words.filter((_, c) => top - row[c] < TIE);
  if (tied.length === words.length) return fill(t('idea.answer.even'), { question, w: top.toFixed(2) });
  if (tied.length > 1) return fill(t('idea.answer.split'), { question, words: tied.map((word) => fill(t('idea.quoted'), { word })).join(t('idea.and')), w: top.toFixed(2) });
  return fill(t('idea.answer'), { question, word: tied[0], w: top.toFixed(2) });
}

class IdeaView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'idea-section');
  readonly #message = new MessageLine('idea-message');
  readonly #narration = narration('idea-narration');
  readonly #answers = el('ul', 'idea-answers');
  /** said while a box of the reader's question is invalid: the map and the list are of the last valid one */
  readonly #stale = el('p', 'idea-stale');
  readonly #strength = el('input');
  readonly #strengthValue = el('output', 'idea-strength-value');
  readonly #yours: HTMLInputElement[] = [];
  readonly #map: Heatmap;
  readonly #latest = new LatestOnly();
  readonly #unsubscribe: () => void;
  #computeCount = 0;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state, lang } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, css);
    const words = el('ol', 'idea-words');
    words.setAttribute('aria-label', t('idea.sentence'));
    for (const id of ORDER[lang]) words.append(el('li', 'idea-word', WORDS[id].text[lang]));
    words.append(el('li', 'idea-sentence', t('idea.sentence.full')));
    this.#root.append(
      el('p', 'idea-intro', t('idea.intro')),
      el('p', 'al-field-label', t('idea.sentence')),
      words,
      el('p', 'idea-setup', t('idea.setup')),
      tryThis(t('try.title'), [t('idea.try.strength'), t('idea.try.yours')]),
    );

    const controls = el('div', 'al-controls');
    const { min, max } = limits('idea_strength');
    Object.assign(this.#strength, { type: 'range', min: String(min), max: String(max), step: '1', value: String(state.get('idea_strength')) });
    this.#strength.className = 'lab-range';
    this.#strength.dataset.testid = 'idea-strength';
    this.#strength.addEventListener('input', () => state.set('idea_strength', Number(this.#strength.value)));
    const strengthField = field(t('idea.strength'), this.#strength, state.isHidden('idea_strength'));
    strengthField.classList.add('idea-strength');
    const pair = el('span', 'idea-strength-pair');
    pair.append(this.#strength, this.#strengthValue);
    strengthField.append(pair);
    controls.append(strengthField);

    const yours = el('fieldset', 'idea-yours');
    yours.append(el('legend', undefined, t('idea.yours')));
    yours.hidden = state.isHidden('idea_q');
    const qLimits = limits('idea_q');
    IDEA_FEATURES.forEach((feature, i) => {
      const input = el('input');
      Object.assign(input, { type: 'number', step: '0.5', min: String(qLimits.min), max: String(qLimits.max) });
      input.dataset.testid = `idea-q-${feature}`;
      const label = fill(t('idea.yours.field'), { feature: t(`idea.feature.${feature}`) });
      // every keystroke: a valid number moves the weights at once, an invalid one is said at once
      input.addEventListener('input', () => {
        const message = checkNumber(t, label, input.value, qLimits);
        setFieldError(input, message);
        this.#markStale();
        if (message !== null) return; // the typed value stays; the weights keep the last good question
        const next = this.#question();
        next[i] = Number(input.value);
        if (next[i] !== this.#question()[i]) state.set('idea_q', next);
      });
      this.#yours.push(input);
      // named by its label ("person") within the fieldset's legend ("Your question"), as it reads
      yours.append(field(t(`idea.feature.${feature}`), input));
    });
    controls.hidden = state.isHidden('controls');
    yours.hidden ||= state.isHidden('controls');
    this.#root.append(controls, yours, this.#message.element, this.#narration);

    const box = el('div', 'idea-map');
    this.#map = new Heatmap(box, {
      id: 'idea-weights',
      title: t('idea.map'),
      fixedRange: [0, 1],
      t,
      xTitle: t('idea.axis.words'),
      yTitle: t('idea.axis.questions'),
    });
    this.#stale.hidden = true;
    this.#root.append(box, this.#stale, this.#answers, el('p', 'idea-meaning', t('idea.meaning')));

    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.some((n) => WATCHED.includes(n))) this.#render(changed);
    });
    this.#render([]);
  }

  /** The reader's question as stored (five numbers; zeros when none is stored). */
  #question(): number[] {
    const q = this.#ctx.state.get('idea_q');
    return q.length === D ? [...q] : new Array<number>(D).fill(0);
  }

  #render(changed: readonly PropName[]): void {
    const { t, state, lab, lang } = this.#ctx;
    const strength = state.get('idea_strength');
    const question = this.#question();
    this.#strength.value = String(strength);
    this.#strengthValue.textContent = String(strength);
    this.#yours.forEach((input, i) => {
      if (input.getAttribute('aria-invalid') === 'true' && !changed.includes('idea_q')) return;
      // the box being typed in keeps what the reader typed ("2." or "-" on the way to a number)
      if (input.matches(':focus')) return;
      input.value = String(question[i]);
      setFieldError(input, null);
    });
    this.#markStale();
    const { keys, queries, words } = ideaInputs(lang, strength, question);
    const key = { shape: [1, D, D], data: keys };
    const names = [...QUESTIONS.map((q) => t(q.key)), t('idea.q.yoursShort')];
    void this.#latest.run(
      () => lab.attention({ query: { shape: [1, names.length, D], data: queries }, key, value: key, score: 'scaled' }),
      (result) => {
        const w = result.weights.data;
        this.#map.update({ rows: names.length, cols: words.length, values: w, rowLabels: names, colLabels: words });
        const answers = names.map((name, r) => answerOf(t, name, words, w.slice(r * words.length, (r + 1) * words.length)));
        this.#answers.replaceChildren(...answers.map((a) => el('li', undefined, a)));
        // the row the change moved: the reader's own question, or the first fixed one for the sharpness
        if (changed.length > 0) this.#narration.textContent = changed.includes('idea_q') ? answers[answers.length - 1] : answers[0];
        this.#message.show('ok', t('idea.ok'));
        this.#root.dataset.state = 'ok';
        this.#root.dataset.computeCount = String(++this.#computeCount);
      },
      (err) => {
        this.#message.show('error', `${t('error.prefix')}${errorText(err)}`);
        this.#root.dataset.state = 'error';
      },
    );
  }

  /** Marks the answers as the last valid question's while any box of the reader's question is invalid. */
  #markStale(): void {
    const invalid = this.#yours.some((input) => input.getAttribute('aria-invalid') === 'true');
    this.#stale.hidden = !invalid;
    this.#stale.textContent = invalid ? this.#ctx.t('idea.stale') : '';
    this.#answers.classList.toggle('idea-answers-stale', invalid);
  }

  setActive(): void {}

  onWorkerRestart(): void {
    this.#render([]);
  }

  destroy(): void {
    this.#unsubscribe();
    this.#latest.cancel();
    this.#map.destroy();
    this.#root.remove();
  }
}

export const ideaSection: SectionModule = {
  id: 'idea',
  strings: IDEA_STRINGS,
  mount: (host, ctx) => new IdeaView(host, ctx),
};
