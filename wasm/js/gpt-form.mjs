// The form of a regular Tang poem (绝句 or 律诗), checked on a poem or on a GPT's sample: one
// module that the page (§5), the scripts and the tests import, so that they count alike.
//
// A poem has the form when its body is 4 or 8 sentences of the same length, 5 or 7 characters
// (五言/七言), each ended by a punctuation mark (so every mark is in its place, after the 5th or 7th
// character), the last by a stop (。？！), and each line of the body holds whole sentences. Which
// mark ends an inner sentence is left to the editor: the collection's regular poems put 。 or ， in
// the middle of a couplet here and there.
// The title (a line 《…》) and the author (the line after it) are not the body.
//
// A sample (docs/gpt.md, "The form"): the text generated from the poem-start prompt (a blank
// line, POEM_START) until the poem end (the next blank line) or SAMPLE_CAP characters, whichever
// comes first; a sample that reaches the cap without an end has no form.

/**
 * The form of a poem or a sample, and if it has none, why.
 * @typedef {object} FormVerdict
 * @property {boolean} ok
 * @property {string} why why not, in words ('' when ok)
 * @property {number} sentences
 * @property {number} length
 */

/** The prompt a sample starts from: the blank line that ends the poem before it. */
export const POEM_START = '\n\n';
/** Characters generated at most for one sample: longer than any 七律 with its title and author. */
export const SAMPLE_CAP = 120;
/** The sampling of the form rate: temperature 0.8, seeds FORM_SEEDS (1 … 100). */
export const FORM_TEMPERATURE = 0.8;
/** @type {readonly number[]} */
export const FORM_SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

const PAUSE = '，、；：';
const STOP = '。？！';
const MARKS = PAUSE + STOP;

/**
 * The poem a generated text ends with: up to the first blank line (the poem end), or null when
 * there is none (the sample ran to the cap).
 * @param {string} generated the text after POEM_START
 * @returns {string | null}
 */
export function samplePoem(generated) {
  const end = generated.indexOf('\n\n');
  return end < 0 ? null : generated.slice(0, end);
}

/**
 * The body lines of a poem: its lines without the title (a first line 《…》) and the author line
 * after it.
 * @param {string} poem
 * @returns {string[]}
 */
export function bodyLines(poem) {
  const lines = poem.split('\n');
  return lines[0]?.startsWith('《') ? lines.slice(2) : lines;
}

/**
 * Whether a poem (title and author optional) has the form, and if not, why.
 * @param {string} poem
 * @returns {FormVerdict}
 */
export function poemForm(poem) {
  const lines = bodyLines(poem);
  /** @type {string[][]} */
  const sentences = [];
  for (const line of lines) {
    const chars = [...line];
    let current = [];
    for (const ch of chars) {
      current.push(ch);
      if (MARKS.includes(ch)) {
        sentences.push(current);
        current = [];
      }
    }
    if (current.length > 0) return { ok: false, why: 'a line ends inside a sentence', sentences: sentences.length, length: 0 };
  }
  const n = sentences.length;
  const fail = (/** @type {string} */ why) => ({ ok: false, why, sentences: n, length: n ? sentences[0].length - 1 : 0 });
  if (n !== 4 && n !== 8) return fail(`${n} sentences, not 4 or 8`);
  const length = sentences[0].length - 1;
  if (length !== 5 && length !== 7) return fail(`sentences of ${length} characters, not 5 or 7`);
  for (let i = 0; i < n; i++) {
    const s = sentences[i];
    if (s.length - 1 !== length) return fail(`sentence ${i + 1} has ${s.length - 1} characters, not ${length}`);
    if (s.slice(0, -1).some((ch) => !/\p{Script=Han}/u.test(ch))) return fail(`sentence ${i + 1} holds a character that is not a Chinese character`);
  }
  const last = /** @type {string} */ (sentences[n - 1].at(-1));
  if (!STOP.includes(last)) return fail(`the last sentence ends with ${last}, not 。？！`);
  return { ok: true, why: '', sentences: n, length };
}

/**
 * Whether a sample (the text generated after POEM_START) has the form.
 * @param {string} generated
 * @returns {FormVerdict}
 */
export function sampleForm(generated) {
  const poem = samplePoem(generated);
  return poem === null ? { ok: false, why: 'no poem end within the cap', sentences: 0, length: 0 } : poemForm(poem);
}

/**
 * The bodies of the poems of a text (paragraphs: poems separated by a blank line) that have the
 * form, a poem a paragraph, without title and author: the corpus of the poems recipe
 * (docs/gpt.md), which trains on the 绝句 and 律诗 only, each window from a poem's first line, so
 * that the form is what there is to learn and a character's place in its line is its place in
 * the window.
 * @param {string} text
 * @returns {string}
 */
export function regularPoems(text) {
  const poems = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/).map((p) => p.trim()).filter((p) => p !== '' && poemForm(p).ok);
  return poems.length ? `${poems.map((p) => bodyLines(p).join('\n')).join('\n\n')}\n` : '';
}

/**
 * The form rate of samples: each generated text's verdict, and the share with the form.
 * @param {readonly string[]} generated
 * @returns {{ verdicts: FormVerdict[], rate: number }}
 */
export function formRate(generated) {
  const verdicts = generated.map(sampleForm);
  return { verdicts, rate: verdicts.length ? verdicts.filter((v) => v.ok).length / verdicts.length : 0 };
}
