// The note's example sentences, and the words typed without spaces that split into known words: §3.3
// splits into its model's vocabulary, §3.4 and §3.6 (which have none) into the note's words, so
// "我爱我" is offered as "我 爱 我" instead of silently becoming one word.

/** The note's five sentences (§3.3's examples of the note's task; their words, §3.4's and §3.6's). */
export const NOTE_SENTENCES = ['咖哥 喜欢 小冰', '我 爱 学习 人工智能', '深度学习 改变 世界', '自然 语言 处理 很 强大', '神经网络 非常 复杂'];

/** Every word of the note's sentences. */
export const NOTE_WORDS: readonly string[] = [...new Set(NOTE_SENTENCES.flatMap((s) => s.split(' ')))];

/**
 * A typed word that is not in the vocabulary but splits into vocabulary words (longest match
 * first): "咖哥喜欢小冰" → "咖哥 喜欢 小冰". Returns the whole sentence with such words split, or
 * null when no unknown word splits.
 */
export function splitSuggestion(text: string, vocabulary: readonly string[]): string | null {
  const known = new Set(vocabulary);
  const longest = Math.max(1, ...vocabulary.map((w) => [...w].length));
  let changed = false;
  const words = text.trim().split(/\s+/u).filter(Boolean).map((word) => {
    if (known.has(word)) return word;
    const chars = [...word];
    const parts: string[] = [];
    for (let i = 0; i < chars.length; ) {
      let n = Math.min(longest, chars.length - i);
      while (n > 0 && !known.has(chars.slice(i, i + n).join(''))) n--;
      if (n === 0) return word; // some piece is unknown: leave the word as typed
      parts.push(chars.slice(i, i + n).join(''));
      i += n;
    }
    if (parts.length > 1) changed = true;
    return parts.join(' ');
  });
  return changed ? words.join(' ') : null;
}
