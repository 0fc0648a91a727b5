// The recipe of each §3.3 task: the settings a task switch (or a widget's `task` attribute)
// applies, and its step count. Kept apart from the trainer so the widgets' entry can read it.
import type { CellName } from '#shared/types/seq2seq';

export type TaskName = 'zh-en' | 'note' | 'dates';

/**
 * Steps of each task's recipe: the note's 400; dates learns to ~97% exact match in 300 at batch
 * 16; zh-en lines up over 90% of its words well within them (node scripts/alignment.mjs).
 */
export const RECIPE_STEPS: Record<TaskName, number> = { 'zh-en': 800, note: 400, dates: 300 };

/**
 * The settings a task switch applies: a GRU for the grammar corpus (the state table's defaults),
 * the note's recipe, and an LSTM recipe for dates (README).
 */
export const RECIPES: Record<TaskName, { cell: CellName; hidden: number; lr: number }> = {
  'zh-en': { cell: 'gru', hidden: 64, lr: 0.01 },
  note: { cell: 'rnn', hidden: 128, lr: 0.001 },
  dates: { cell: 'lstm', hidden: 64, lr: 0.005 },
};

