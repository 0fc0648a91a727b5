// The Transformer's attention maps as matrices, one per layer and head, from a greedy translation's
// trace (TransformerTranslateResult): the encoder's self-attention (S × S, each source token over
// the source), the decoder's causal self-attention (T × T, each output step over the decoder's
// input so far: <sos> and the tokens written before it; the masked future is 0, as softmax makes
// it) and the cross-attention (T × S, each output step over the source). Free of the DOM.
import type { TransformerTranslateResult } from '#types/seq2seq';
import { distinctLabels } from './token-labels';

export type AttentionKind = 'encoder' | 'decoder' | 'cross';
export const ATTENTION_KINDS: readonly AttentionKind[] = ['encoder', 'decoder', 'cross'];

export interface AttentionMatrix {
  rows: number;
  cols: number;
  /** row-major, rows · cols */
  values: Float32Array;
  rowLabels: string[];
  colLabels: string[];
  /** 'en' for the tokens the model writes (its English, or a date's ISO digits): see HeatmapData */
  rowLang?: string;
  colLang?: string;
}

/** The maps of one kind: maps[layer][head]. */
export interface KindMaps {
  layers: number;
  heads: number;
  maps: AttentionMatrix[][];
}

const shown = (text: string) => (text === ' ' ? '␣' : text);

/** The source tokens as typed, the output tokens produced at each step, and the decoder's inputs. */
export function traceLabels(r: TransformerTranslateResult): { source: string[]; output: string[]; inputs: string[] } {
  const source = r.source.map((s) => shown(s.text));
  const output = (r.steps ?? []).map((s) => shown(s.token));
  const inputs = ['<sos>', ...output.slice(0, -1)];
  return { source, output, inputs };
}

/**
 * Every kind's maps of a greedy translation (no steps: the decoder kinds have 0 rows); `strings`:
 * the section's (a repeated token's name, token-labels.ts).
 */
export function attentionMaps(r: TransformerTranslateResult, strings: (key: string) => string): Record<AttentionKind, KindMaps> {
  const [layers, heads, S] = r.encoder.self.shape;
  const steps = r.steps ?? [];
  const T = steps.length;
  const labels = traceLabels(r);
  const src = distinctLabels(labels.source, strings);
  const out = distinctLabels(labels.output, strings);
  const inputs = distinctLabels(labels.inputs, strings);
  const written = { rowLang: 'en' };
  const build = (rows: number, cols: number, rowLabels: string[], colLabels: string[], fill: (l: number, h: number, values: Float32Array) => void, langs = {}): AttentionMatrix[][] =>
    Array.from({ length: layers }, (_, l) =>
      Array.from({ length: heads }, (_, h) => {
        const values = new Float32Array(rows * cols);
        fill(l, h, values);
        return { rows, cols, values, rowLabels, colLabels, ...langs };
      }),
    );
  const encoder = build(S, S, src, src, (l, h, values) => values.set(r.encoder.self.data.subarray(((l * heads + h) * S) * S, ((l * heads + h) * S + S) * S)));
  const decoder = build(T, T, out, inputs, (l, h, values) => {
    steps.forEach((step, t) => {
      const n = t + 1; // the prefix: <sos> and the t tokens before this step
      values.set(step.self.data.subarray((l * heads + h) * n, (l * heads + h) * n + n), t * T);
    });
  }, { ...written, colLang: 'en' });
  const cross = build(T, S, out, src, (l, h, values) => {
    steps.forEach((step, t) => values.set(step.cross.data.subarray((l * heads + h) * S, (l * heads + h) * S + S), t * S));
  }, written);
  return {
    encoder: { layers, heads, maps: encoder },
    decoder: { layers, heads, maps: decoder },
    cross: { layers, heads, maps: cross },
  };
}

/**
 * What lights the source tokens at output step t: layer ≥ 1 and head ≥ 1, that head's
 * cross-attention; head 0, the mean of that layer's heads; layer 0, the rollout through every layer
 * (the step's `attention`, its share of the rollout that lands on the source).
 */
export function sourceLight(r: TransformerTranslateResult, t: number, layer: number, head: number): Float32Array {
  const step = r.steps?.[t];
  const S = r.source.length;
  if (!step) return new Float32Array(S);
  if (layer === 0) return step.attention.slice(0, S);
  const [L, H] = step.cross.shape;
  const l = Math.min(layer, L) - 1;
  if (head >= 1) {
    const h = Math.min(head, H) - 1;
    return step.cross.data.slice((l * H + h) * S, (l * H + h) * S + S);
  }
  const mean = new Float32Array(S);
  for (let h = 0; h < H; h++) for (let s = 0; s < S; s++) mean[s] += step.cross.data[(l * H + h) * S + s] / H;
  return mean;
}

/**
 * At step t, every layer's and head's cross-attention over the source as rows (named by
 * `headLabel`, "L1 H1" in English), then the rollout; `strings`: the section's.
 */
export function stepMatrix(
  r: TransformerTranslateResult,
  t: number,
  strings: (key: string) => string,
  rolloutLabel: string,
  headLabel: (l: number, h: number) => string = (l, h) => `L${l} H${h}`,
): AttentionMatrix | null {
  const step = r.steps?.[t];
  if (!step) return null;
  const [L, H, S] = step.cross.shape;
  const rows = L * H + 1;
  const values = new Float32Array(rows * S);
  values.set(step.cross.data.subarray(0, L * H * S));
  values.set(step.attention.subarray(0, S), L * H * S);
  const rowLabels: string[] = [];
  for (let l = 1; l <= L; l++) for (let h = 1; h <= H; h++) rowLabels.push(headLabel(l, h));
  rowLabels.push(rolloutLabel);
  return { rows, cols: S, values, rowLabels, colLabels: distinctLabels(traceLabels(r).source, strings) };
}
