// §3.3's settings controls: the speed box (first in the settings panel) and the model settings
// (task, cell, hidden size, score, learning rate, beam), each bound to its s2s_* row of the state
// table. A rejected number is named under its box by the field's label and stays in the box; the
// state (and so the model) is left alone until the reader fixes it.
import type { CellName } from '#shared/types/seq2seq';
import type { SectionContext } from '../section';
import type { PropName } from '../state';
import { CELLS, SCORES } from '../state-table';
import { el, errorText, field, select, setFieldError } from './dom';
import { numberProblem } from './translate-text';
import type { ScoreSetting, TaskName } from './translate-train';

/** The settings that make a new model. */
export const MODEL_SETTINGS: readonly PropName[] = ['seed', 's2s_task', 's2s_cell', 's2s_hidden', 's2s_score', 's2s_lr'];
/** The label of each model setting, for the notice that a change discarded the trained model. */
export const SETTING_LABELS: Partial<Record<PropName, string>> = {
  seed: 'tr.seed',
  s2s_task: 'tr.task',
  s2s_cell: 'tr.cell',
  s2s_hidden: 'tr.hidden',
  s2s_score: 'tr.score',
  s2s_lr: 'tr.lr',
};

type NumberSetting = 's2s_speed' | 's2s_hidden' | 's2s_lr' | 's2s_beam';

export class TranslateControls {
  /** the speed box, for the run row */
  readonly speed: HTMLLabelElement;
  /** the model settings row */
  readonly settings = el('div', 'al-controls tr-settings');
  readonly #ctx: SectionContext;
  readonly #controls: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};

  /** `onTask`: the reader picked a task (the section applies its recipe) */
  constructor(ctx: SectionContext, onTask: (task: TaskName) => void) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    this.speed = this.#numberInput('s2s_speed', 'tr.speed', 1);
    const task = select([['zh-en', t('tr.task.zh-en')], ['note', t('tr.task.note')], ['dates', t('tr.task.dates')]], state.get('s2s_task'), 's2s-task');
    task.addEventListener('change', () => onTask(task.value as TaskName));
    this.#controls.s2s_task = task;
    const cell = select(CELLS.map((c) => [c, c.toUpperCase()] as const), state.get('s2s_cell'), 's2s-cell');
    cell.addEventListener('change', () => state.set('s2s_cell', cell.value as CellName));
    this.#controls.s2s_cell = cell;
    const scores: [ScoreSetting, string][] = [['none', t('tr.score.none')], ...SCORES.map((s) => [s, t(`tr.score.${s}`)] as [ScoreSetting, string])];
    const score = select(scores, state.get('s2s_score'), 's2s-score');
    score.addEventListener('change', () => state.set('s2s_score', score.value as ScoreSetting));
    this.#controls.s2s_score = score;
    this.settings.append(
      field(t('tr.task'), task, state.isHidden('s2s_task')),
      field(t('tr.cell'), cell, state.isHidden('s2s_cell')),
      this.#numberInput('s2s_hidden', 'tr.hidden', 1),
      field(t('tr.score'), score, state.isHidden('s2s_score')),
      this.#numberInput('s2s_lr', 'tr.lr', 'any'),
      this.#numberInput('s2s_beam', 'tr.beam', 1),
    );
  }

  /** Every control shows the state's value, except a box holding a rejected value (the error names it). */
  sync(): void {
    const s = this.#ctx.state;
    for (const [name, control] of Object.entries(this.#controls)) {
      if (control.getAttribute('aria-invalid') === 'true') continue;
      control.value = String(s.get(name as PropName));
    }
  }

  #numberInput(name: NumberSetting, key: string, step: number | 'any'): HTMLLabelElement {
    const input = el('input');
    input.type = 'number';
    input.step = String(step);
    input.dataset.testid = name.replace('_', '-');
    input.addEventListener('change', () => {
      const { t } = this.#ctx;
      const label = t(key);
      // Checked against the state table's limits first, so the message names the field by its label.
      let problem = numberProblem(name, input.value, label, t);
      if (!problem) {
        try {
          this.#ctx.state.set(name, Number(input.value));
        } catch (err) {
          problem = `${label}: ${errorText(err)}`;
        }
      }
      // the shared field errors (dom.ts): the message under the box, the box marked aria-invalid
      setFieldError(input, problem || null);
    });
    this.#controls[name] = input;
    return field(this.#ctx.t(key), input, this.#ctx.state.isHidden(name));
  }
}
