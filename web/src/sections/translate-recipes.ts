// The recipe of each §3.3 task: the settings a task switch (or a widget's `task` attribute)
// applies, and its step count. Kept apart from the trainer so the widgets' entry can read it.
import type { CellName } from '#types/seq2seq';
import { RNN_TASK_DEFAULTS } from '../../../wasm/js/task-defaults.mjs';

export type TaskName = 'zh-en' | 'note' | 'dates';

/**
 * Steps of each task's recipe: the note's 400; for dates and zh-en, enough that the held-out table
 * and the decoding show what the section's prompts describe (tests/e2e/claims/ run them; node
 * scripts/alignment.mjs measures zh-en's alignment).
 */
export const RECIPE_STEPS: Record<TaskName, number> = { 'zh-en': 800, note: 400, dates: 300 };

/**
 * The settings a task switch applies: the task's row of the one table of defaults that the command
 * line starts from too (wasm/js/task-defaults.mjs).
 */
export const RECIPES: Record<TaskName, { cell: CellName; hidden: number; lr: number }> = {
  'zh-en': recipe('zh-en'),
  note: recipe('note'),
  dates: recipe('dates'),
};

function recipe(task: TaskName): { cell: CellName; hidden: number; lr: number } {
  const d = RNN_TASK_DEFAULTS[task];
  return { cell: d.cell, hidden: d.hidden, lr: d.learningRate };
}
