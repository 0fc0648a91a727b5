// The core's error for a sentence of more source tokens than the model takes, in the reader's words
// (§3.3 and §4): the core sends a code and the numbers its English message names
// (docs/architecture.md), never text for the page to parse. The strings live here, with the one
// function that reads them, rather than in the shell's table that every widget downloads.
import { fill, type Lang, type Strings } from '../i18n';

export const SENTENCE_STRINGS: Strings = {
  en: {
    'sentence.tooLong': 'at most {max} {unit} (this one has {count} {unit}); shorten it',
    'sentence.overPositions': 'at most {max} {unit}, the positions of the positional table (this one has {count} {unit}); shorten it',
    'unit.words': 'words',
    'unit.chars': 'characters',
  },
  zh: {
    'sentence.tooLong': '最多 {max} {unit}（这句有 {count} {unit}），请缩短',
    'sentence.overPositions': '最多 {max} {unit}，即位置编码表的位置数（这句有 {count} {unit}），请缩短',
    'unit.words': '个词',
    'unit.chars': '个字符',
  },
};

/** The core's codes for a sentence of more source tokens than the model takes, and their strings. */
const SENTENCE_CODES: Record<string, string> = { sentenceTooLong: 'sentence.tooLong', sentenceOverPositions: 'sentence.overPositions' };

/**
 * The core's error for a sentence of more source tokens than the model takes (its code, with the
 * count and the limit) in the reader's words, counted in the unit of the model's tokenizer: "at
 * most 64 words (this one has 70 words); shorten it". Null for any other error.
 */
export function sentenceTooLongText(lang: Lang, err: unknown, tokenizer: 'words' | 'chars' | undefined): string | null {
  const { code, details } = err as { code?: string; details?: { count: number; limit: number } };
  const key = code !== undefined && Object.hasOwn(SENTENCE_CODES, code) ? SENTENCE_CODES[code] : undefined;
  if (key === undefined || !details) return null;
  const strings = SENTENCE_STRINGS[lang];
  return fill(strings[key], { max: details.limit, count: details.count, unit: strings[tokenizer === 'chars' ? 'unit.chars' : 'unit.words'] });
}
