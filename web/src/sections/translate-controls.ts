// §3.3's settings controls: the speed box (first in the settings panel) and the model settings
// (task, cell, hidden size, score, learning rate, beam), each bound to its translate_* row of the state
// table. A rejected number is named under its box by the field's label and stays in the box; the
// state (and so the model) is left alone until the reader fixes it.
import type { CellName } from '#types/seq2seq';
import type { SectionContext } from '../section';
import type { PropName } from '../state';
import { CELLS, SCORES } from '../state-table';
import { el, errorText, field, select, setFieldError } from './dom';
import { numberProblem } from './translate-text';
import type { ScoreSetting, TaskName } from './translate-train';

/** The settings that make a new model. */
export const MODEL_SETTINGS: readonly PropName[] = ['seed', 'translate_task', 'translate_cell', 'translate_hidden', 'translate_score', 'translate_lr'];
/** The label of each model setting, for the notice that a change discarded the trained model. */
export const SETTING_LABELS: Partial<Record<PropName, string>> = {
  seed: 'translate.seed',
  translate_task: 'translate.task',
  translate_cell: 'translate.cell',
  translate_hidden: 'translate.hidden',
  translate_score: 'translate.score',
  translate_lr: 'translate.lr',
};

type NumberSetting = 'translate_speed' | 'translate_hidden' | 'translate_lr' | 'translate_beam';

export class TranslateControls {
  /** the speed box, for the run row */
  readonly speed: HTMLLabelElement;
  /** the model settings row */
  readonly settings = el('div', 'al-controls translate-settings');
  /** under the row: what the chosen attention score computes (its menu names it in a word) */
  readonly scoreNote = el('p', 'translate-score-note');
  readonly #ctx: SectionContext;
  readonly #controls: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};

  /** `onTask`: the reader picked a task (the section applies its recipe) */
  constructor(ctx: SectionContext, onTask: (task: TaskName) => void) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    this.speed = this.#numberInput('translate_speed', 'translate.speed', 1);
    const task = select([['zh-en', t('translate.task.zh-en')], ['note', t('translate.task.note')], ['dates', t('translate.task.dates')]], state.get('translate_task'), 'translate-task');
    task.addEventListener('change', () => onTask(task.value as TaskName));
    this.#controls.translate_task = task;
    const cell = select(CELLS.map((c) => [c, c.toUpperCase()] as const), state.get('translate_cell'), 'translate-cell');
    cell.addEventListener('change', () => state.set('translate_cell', cell.value as CellName));
    this.#controls.translate_cell = cell;
    const scores: [ScoreSetting, string][] = [['none', t('translate.score.none')], ...SCORES.map((s) => [s, t(`translate.score.${s}`)] as [ScoreSetting, string])];
    const score = select(scores, state.get('translate_score'), 'translate-score');
    score.addEventListener('change', () => state.set('translate_score', score.value as ScoreSetting));
    this.#controls.translate_score = score;
    this.scoreNote.id = 'translate-score-note';
    this.scoreNote.dataset.testid = 'translate-score-note';
    score.setAttribute('aria-describedby', this.scoreNote.id);
    this.settings.append(
      field(t('translate.task'), task, state.isHidden('translate_task')),
      field(t('translate.cell'), cell, state.isHidden('translate_cell')),
      this.#numberInput('translate_hidden', 'translate.hidden', 1),
      field(t('translate.score'), score, state.isHidden('translate_score')),
      this.#numberInput('translate_lr', 'translate.lr', 'any'),
      this.#numberInput('translate_beam', 'translate.beam', 1),
    );
    this.#showScore();
  }

  /**
   * The controls of `changed` (all when omitted) show the state's value, except a box holding a
   * rejected value (the error names it); a change to another setting leaves alone what the reader
   * is typing in this one.
   */
  sync(changed?: readonly PropName[]): void {
    const s = this.#ctx.state;
    for (const [name, control] of Object.entries(this.#controls)) {
      if (changed && !changed.includes(name as PropName)) continue;
      if (control.getAttribute('aria-invalid') === 'true') continue;
      control.value = String(s.get(name as PropName));
    }
    this.#showScore();
  }

  #showScore(): void {
    this.scoreNote.textContent = this.#ctx.t(`translate.score.def.${this.#ctx.state.get('translate_score')}`);
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
