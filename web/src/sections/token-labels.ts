// The labels of a sequence's tokens where each position must be told apart: a token that occurs more
// than once carries its position (1-based), so the two 我 of “我 爱 我” are two rows, two columns and
// two names in every view of a section (maps, tooltips, neuron view, captions).
import { fill } from '../i18n';

/**
 * Labels made distinct (a category axis merges equal labels): repeats get their position, in the
 * page language's brackets (the shell's label.paren: 我 (1) on the English page, 我（1） on the
 * Chinese one, whatever the token's script). `t`: the section's strings.
 */
export function distinctLabels(tokens: readonly string[], t: (key: string) => string): string[] {
  const counts = new Map<string, number>();
  for (const tok of tokens) counts.set(tok, (counts.get(tok) ?? 0) + 1);
  const paren = t('label.paren');
  return tokens.map((tok, i) => ((counts.get(tok) ?? 0) > 1 ? fill(paren, { a: tok, b: i + 1 }) : tok));
}
