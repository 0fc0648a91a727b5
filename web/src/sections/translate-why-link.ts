// The ask-why panel's interventions as text for the link (translate_why in §3.3, transformer_why in §4): one item
// per intervention, comma-separated, applied in order; steps, source tokens, layers and heads are
// counted from 1, as the panel shows them.
//   a3:2        step 3's attention all on source token 2 (the Transformer: every layer and head)
//   w1:likes    step 1 writes "likes" (',', '%' and spaces in the word are %-escaped)
//   zc1.2       the Transformer only: head 2 of layer 1 of the cross-attention outputs zeros at
//   zd1.2@4     every step, or (@4) at step 4 only; c cross, d decoder self, e encoder self
//               (the encoder runs once: no step)
// The parser never evaluates the text: a malformed item is a LinkProblem naming the item, which
// the panel shows (as text) under the field's name.
import type { Intervention } from '#types/seq2seq';

/** at most this many items in a link */
export const MAX_LINK_ITEMS = 32;
const MAX_STEP = 1024;
const MAX_LAYER = 6;
const MAX_HEAD = 16;

const KIND_LETTER = { cross: 'c', 'decoder-self': 'd', 'encoder-self': 'e' } as const;
const LETTER_KIND = { c: 'cross', d: 'decoder-self', e: 'encoder-self' } as const;

/** What is wrong with one item: `problem` is a string key (why.link.problem.*), `item` counts from 1. */
export interface LinkProblem {
  item: number;
  text: string;
  problem: 'form' | 'step' | 'source' | 'layer' | 'head' | 'word' | 'many' | 'transformer' | 'encoder-step';
}

export type LinkParse = { ok: true; list: Intervention[] } | ({ ok: false } & LinkProblem);

function escapeWord(word: string): string {
  return word.replace(/[%,\s]/gu, (c) => encodeURIComponent(c));
}

/** The link text of a list of interventions (kinds the link does not carry are left out). */
export function formatInterventions(list: readonly Intervention[]): string {
  const items: string[] = [];
  for (const v of list) {
    const step = (v.step ?? 0) + 1;
    if (v.kind === 'force-attention') items.push(`a${step}:${(v.source ?? 0) + 1}`);
    else if (v.kind === 'force-token') items.push(`w${step}:${escapeWord(v.token ?? '')}`);
    else if (v.kind === 'zero-head') {
      const at = v.step === undefined ? '' : `@${v.step + 1}`;
      items.push(`z${KIND_LETTER[v.attention ?? 'cross']}${(v.layer ?? 0) + 1}.${(v.head ?? 0) + 1}${at}`);
    }
  }
  return items.join(',');
}

/** A whole number 1 … max, else null. */
function count(text: string | undefined, max: number): number | null {
  if (text === undefined || !/^\d{1,5}$/u.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= max ? n : null;
}

/** Parses the link text; `transformer`: zero-head items are allowed. */
export function parseInterventions(text: string, transformer: boolean): LinkParse {
  const list: Intervention[] = [];
  const raw = text.trim();
  if (raw === '') return { ok: true, list };
  const items = raw.split(',');
  if (items.length > MAX_LINK_ITEMS) return { ok: false, item: MAX_LINK_ITEMS + 1, text: items[MAX_LINK_ITEMS].slice(0, 40), problem: 'many' };
  for (let i = 0; i < items.length; i++) {
    const item = items[i].trim();
    const fail = (problem: LinkProblem['problem']): LinkParse => ({ ok: false, item: i + 1, text: item.slice(0, 40), problem });
    let m = /^a(\d+):(\d+)$/u.exec(item);
    if (m) {
      const step = count(m[1], MAX_STEP), source = count(m[2], MAX_STEP);
      if (step === null) return fail('step');
      if (source === null) return fail('source');
      list.push({ step: step - 1, kind: 'force-attention', source: source - 1 });
      continue;
    }
    m = /^w(\d+):(.+)$/su.exec(item);
    if (m) {
      const step = count(m[1], MAX_STEP);
      if (step === null) return fail('step');
      let word: string;
      try {
        word = decodeURIComponent(m[2]);
      } catch {
        return fail('word');
      }
      if (word === '' || [...word].length > 64 || /[\u0000-\u001f\u007f]/u.test(word)) return fail('word');
      list.push({ step: step - 1, kind: 'force-token', token: word });
      continue;
    }
    m = /^z([cde])(\d+)\.(\d+)(?:@(\d+))?$/u.exec(item);
    if (m) {
      if (!transformer) return fail('transformer');
      const layer = count(m[2], MAX_LAYER), head = count(m[3], MAX_HEAD);
      if (layer === null) return fail('layer');
      if (head === null) return fail('head');
      const attention = LETTER_KIND[m[1] as keyof typeof LETTER_KIND];
      const v: Intervention = { kind: 'zero-head', attention, layer: layer - 1, head: head - 1 };
      if (m[4] !== undefined) {
        if (attention === 'encoder-self') return fail('encoder-step');
        const step = count(m[4], MAX_STEP);
        if (step === null) return fail('step');
        v.step = step - 1;
      }
      list.push(v);
      continue;
    }
    return fail('form');
  }
  return { ok: true, list };
}
