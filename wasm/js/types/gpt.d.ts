// Types of the GPT session that tsc cannot take from the JavaScript: its config and the results of
// wasm/bindings/gpt_session_bindings.cpp (docs/gpt.md). The class, GptSession, is declared by the
// JSDoc of wasm/js/gpt.mjs.
import type { Tensor } from './attention-lab.js';
export type { GptSession } from '../gpt.mjs';

/** createGptSession's settings; every key but text defaults to the poems recipe (docs/gpt.md). Unknown keys are refused. */
export interface GptSessionConfig {
  /** The corpus (UTF-8, at most 1 MiB); poems are its paragraphs, separated by blank lines. */
  text: string;
  /** Share of the poems held out whole, in [0, 0.5] (seeded); 0: none. */
  heldOut?: number;
  /** The context, in characters. */
  blockSize?: number;
  layers?: number;
  /** Must divide dModel. */
  heads?: number;
  dModel?: number;
  batchSize?: number;
  /** Adam's peak rate. */
  learningRate?: number;
  /** Linear warm-up over this many steps; 0: none. */
  warmup?: number;
  /** The split, the weights and the batch sampling. */
  seed?: number;
  /**
   * Where a training window starts: at the blank line before a poem (and every blockSize
   * characters into a longer one), so a character's place in its line is its place in the
   * window; or anywhere in the text (nanoGPT's). The poems recipe's: 'poem'.
   */
  windows?: 'poem' | 'text';
  /**
   * The share of the training windows that are form drills, in [0, 0.95]: a training poem's line
   * breaks and punctuation with random characters of the text in place of its words ('poem'
   * windows only). The poems recipe's: 0.75 with 'poem' windows, 0 with 'text'.
   */
  drills?: number;
}

/** Losses in nats per character; the baselines are add-one smoothed, fitted on the training text. */
export interface GptEvalResult {
  trainLoss: number;
  validationLoss: number;
  unigramLoss: number;
  bigramLoss: number;
  /** Characters of the held-out text (0: none). */
  characters: number;
}

export interface GptSampleOptions {
  /** Characters to generate (default 32). */
  maxNewTokens?: number;
  greedy?: boolean;
  temperature?: number;
  /** 0: every character. */
  topK?: number;
  /** In (0, 1]. */
  topP?: number;
  seed?: number;
  /** Candidates kept per step (default 5). */
  topCandidates?: number;
  /** Heads whose output is zeroed, [layer, head] from 0 (docs/gpt.md, "What the heads learned"). */
  zeroHeads?: [number, number][];
}

/** Each detector's score per head: the mean attention weight on its targets, in [0, 1]. */
export interface GptHeadScores {
  layers: number;
  heads: number;
  /** (layers, heads): query i → i − 1. */
  previous: Tensor;
  /** (layers, heads): a line's column c → column c of the line before. */
  lineBack: Tensor;
  /** (layers, heads): → the line's first character and the line end before it. */
  lineStart: Tensor;
  /** (layers, heads): r ++ r, the second copy's r_j → the token after r_j's first copy. */
  induction: Tensor;
  /** Queries scored per detector. */
  queries: { previous: number; lineBack: number; lineStart: number; induction: number };
  /**
   * Per detector, the score of a head that spreads its weight evenly over the positions it may see
   * (query i: i + 1), on the same queries: the baseline a learned score is read against.
   */
  even: { previous: number; lineBack: number; lineStart: number; induction: number };
}

export interface GptCandidate {
  id: number;
  char: string;
  /** The model's probability. */
  prob: number;
  /** In the distribution drawn from (temperature, top-k, top-p). */
  sampleProb: number;
}

export interface GptStep {
  token: number;
  char: string;
  position: number;
  prob: number;
  keys: number;
  top: GptCandidate[];
  /** (layers, heads, keys): the predecessor's attention over the cached characters. */
  attention: Tensor;
}

export interface GptSampleResult {
  /** Prompt and generated characters. */
  text: string;
  generated: string;
  ids: number[];
  steps: GptStep[];
}

export interface GptInfo {
  vocab: string[];
  parameters: number;
  step: number;
  config: Required<Omit<GptSessionConfig, 'text'>>;
  corpus: { poems: number; trainPoems: number; heldOutPoems: number; trainCharacters: number; heldOutCharacters: number };
}
