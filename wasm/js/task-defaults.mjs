// The recurrent translator's settings for each task when the caller gives none: what §3.3 of the
// page trains (a task switch applies them; its pairs panel starts from the section's defaults, the
// grammar corpus's) and what `attention-lab train --task NAME` starts from. One table for both, so
// that they cannot drift apart; the state table's translate_* defaults are its zh-en row
// (tests/web/translate.test.mjs). Keys are createSeq2Seq's; a key left out takes the core's
// default for the task (batch 1 for note, 32 otherwise; no clipping; no tanh layer).
// Plain JavaScript so that the page (through Vite) and the command line read the same copy.
/** @import { CellName } from './types/seq2seq.js' */

/** @typedef {'zh-en' | 'note' | 'dates' | 'pairs' | 'reverse' | 'copy'} RnnTask */

/**
 * The recurrent translator's default settings of a task.
 * @typedef {object} RnnTaskDefaults
 * @property {CellName} cell
 * @property {number} hidden
 * @property {number} learningRate
 * @property {number} [batchSize]
 * @property {number} [clipNorm]
 * @property {boolean} [attentionalTanh]
 */

/** @type {Readonly<RnnTaskDefaults>} */
const BOOK = Object.freeze({ cell: 'rnn', hidden: 128, learningRate: 0.001 });
/** @type {Readonly<RnnTaskDefaults>} */
const GRAMMAR = Object.freeze({ cell: 'gru', hidden: 64, learningRate: 0.01 });

/** @type {Readonly<Record<RnnTask, Readonly<RnnTaskDefaults>>>} */
export const RNN_TASK_DEFAULTS = Object.freeze({
  // a GRU lines up the corpus's reordered words within 800 steps (node scripts/alignment.mjs)
  'zh-en': GRAMMAR,
  // the book's recipe
  note: BOOK,
  // the TF.js date example's model (an LSTM with Luong's tanh layer), on batches of 16 to keep a
  // step short in the page
  dates: Object.freeze({ cell: 'lstm', hidden: 64, learningRate: 0.005, batchSize: 16, clipNorm: 1, attentionalTanh: true }),
  pairs: GRAMMAR,
  // not in the page: the book's recipe
  reverse: BOOK,
  copy: BOOK,
});

/**
 * The training settings of a task beyond cell, hidden size and rate, as createSeq2Seq keys: only
 * those the task sets (the tanh layer only with attention, which it refines).
 * @param {RnnTask} task
 * @param {boolean} attention
 * @returns {{ batchSize?: number, clipNorm?: number, attentionalTanh?: true }}
 */
export function trainingDefaults(task, attention) {
  const d = RNN_TASK_DEFAULTS[task];
  /** @type {{ batchSize?: number, clipNorm?: number, attentionalTanh?: true }} */
  const out = {};
  if (d.batchSize !== undefined) out.batchSize = d.batchSize;
  if (d.clipNorm !== undefined) out.clipNorm = d.clipNorm;
  if (d.attentionalTanh && attention) out.attentionalTanh = true;
  return out;
}
