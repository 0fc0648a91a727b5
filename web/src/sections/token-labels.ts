// The labels of a sequence's tokens where each position must be told apart: a token that occurs more
// than once carries its position (1-based), so the two 我 of “我 爱 我” are two rows, two columns and
// two names in every view of a section (maps, tooltips, neuron view, captions).

/** a Han character */
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Labels made distinct (a category axis merges equal labels): repeats get their position. */
export function distinctLabels(tokens: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const tok of tokens) counts.set(tok, (counts.get(tok) ?? 0) + 1);
  // a Chinese token takes full-width brackets, as Chinese text does
  return tokens.map((tok, i) => ((counts.get(tok) ?? 0) > 1 ? (HAN.test(tok) ? `${tok}（${i + 1}）` : `${tok} (${i + 1})`) : tok));
}
