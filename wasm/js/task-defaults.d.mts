/** The recurrent translator's default settings of each task (task-defaults.mjs). */
import type { CellName } from '../../shared/types/seq2seq';

export type RnnTask = 'zh-en' | 'note' | 'dates' | 'pairs' | 'reverse' | 'copy';

export interface RnnTaskDefaults {
  readonly cell: CellName;
  readonly hidden: number;
  readonly learningRate: number;
  readonly batchSize?: number;
  readonly clipNorm?: number;
  readonly attentionalTanh?: boolean;
}

export const RNN_TASK_DEFAULTS: Readonly<Record<RnnTask, RnnTaskDefaults>>;

export function trainingDefaults(task: RnnTask, attention: boolean): { batchSize?: number; clipNorm?: number; attentionalTanh?: true };
