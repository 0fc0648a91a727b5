// §4's setting fields: the task, the architecture (layers, heads, d_model, feed-forward size, norm
// placement) and the run (peak rate, warm-up, steps). Each number is checked against the state
// table's limits (checkNumber) and, for the heads, against d_model (they must divide it), before
// it reaches the state: a refused value stays in its box with a message naming the field
// (setFieldError), and the model is left as it was.
import { limits, type AppState, type PropName } from '../state';
import { fill } from '../i18n';
import { checkNumber, el, field, namedFieldMessage, select, setFieldError } from './dom';
import { headDivisors, TRANSFORMER_EXAMPLES, type TransformerTask } from './transformer-recipes';

type T = (key: string) => string;

export type NumberSetting = 'transformer_layers' | 'transformer_heads' | 'transformer_dmodel' | 'transformer_dff' | 'transformer_lr' | 'transformer_warmup' | 'transformer_steps';

/** Each number setting's label key. */
export const NUMBER_LABELS: Record<NumberSetting, string> = {
  transformer_layers: 'transformer.layers',
  transformer_heads: 'transformer.heads',
  transformer_dmodel: 'transformer.dmodel',
  transformer_dff: 'transformer.dff',
  transformer_lr: 'transformer.lr',
  transformer_warmup: 'transformer.warmup',
  transformer_steps: 'transformer.steps',
};

/** The label key of every setting that makes a new model: all but the number of steps. */
export const MODEL_SETTING_LABELS: Partial<Record<PropName, string>> = {
  seed: 'translate.seed',
  transformer_task: 'transformer.task',
  transformer_norm_first: 'transformer.norm',
  ...Object.fromEntries(Object.entries(NUMBER_LABELS).filter(([name]) => name !== 'transformer_steps')),
};

/** The message for `raw` in field `name` given the other settings (null: fine). */
export function settingProblem(t: T, state: AppState, name: NumberSetting, raw: string): string | null {
  const label = t(NUMBER_LABELS[name]);
  const message = checkNumber(t, label, raw, limits(name));
  if (message !== null) return message;
  const value = Number(raw);
  const dModel = name === 'transformer_dmodel' ? value : state.get('transformer_dmodel');
  const heads = name === 'transformer_heads' ? value : state.get('transformer_heads');
  if ((name === 'transformer_heads' || name === 'transformer_dmodel') && dModel % heads !== 0) {
    const reason = fill(t('transformer.error.heads'), { dModel, divisors: headDivisors(dModel).join(', ') });
    return namedFieldMessage(t, t('transformer.heads'), reason);
  }
  return null;
}

export class TransformerControls {
  readonly element = el('div', 'al-controls transformer-settings');
  readonly inputs: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};
  readonly #t: T;
  readonly #state: AppState;
  /** the last field the reader changed (a refusal by the core is shown under it) */
  lastChanged: PropName | null = null;

  /** `onChange(label, value)`: a setting was changed by the reader (for the narration) */
  constructor(t: T, state: AppState, onChange: (name: PropName, value: string) => void) {
    this.#t = t;
    this.#state = state;
    const task = select([['dates', t('transformer.task.dates')], ['zh-en', t('transformer.task.zh-en')]], state.get('transformer_task'), 'transformer-task');
    task.addEventListener('change', () => {
      this.lastChanged = 'transformer_task';
      onChange('transformer_task', task.options[task.selectedIndex].text);
      // a task switch by the reader brings that task's first example along
      const next = task.value as TransformerTask;
      setFieldError(this.#textBox(), null);
      state.update({ transformer_task: next, transformer_text: TRANSFORMER_EXAMPLES[next][0] });
    });
    this.inputs.transformer_task = task;
    const norm = select([['1', t('transformer.norm.pre')], ['0', t('transformer.norm.post')]], state.get('transformer_norm_first') ? '1' : '0', 'transformer-norm-first');
    norm.addEventListener('change', () => {
      this.lastChanged = 'transformer_norm_first';
      onChange('transformer_norm_first', norm.options[norm.selectedIndex].text);
      state.set('transformer_norm_first', norm.value === '1');
    });
    this.inputs.transformer_norm_first = norm;
    this.element.append(field(t('transformer.task'), task, state.isHidden('transformer_task')));
    for (const name of ['transformer_layers', 'transformer_heads', 'transformer_dmodel', 'transformer_dff'] as const) this.element.append(this.#number(name, onChange));
    this.element.append(field(t('transformer.norm'), norm, state.isHidden('transformer_norm_first')));
    for (const name of ['transformer_lr', 'transformer_warmup', 'transformer_steps'] as const) this.element.append(this.#number(name, onChange));
    this.element.hidden = state.isHidden('controls');
  }

  #number(name: NumberSetting, onChange: (name: PropName, value: string) => void): HTMLLabelElement {
    const t = this.#t;
    const state = this.#state;
    const input = el('input');
    const { min, max, integer } = limits(name);
    Object.assign(input, { type: 'number', min: String(min), max: String(max), step: integer ? '1' : 'any' });
    input.dataset.testid = name.replace(/_/g, '-');
    input.addEventListener('change', () => {
      const message = settingProblem(t, state, name, input.value);
      setFieldError(input, message);
      if (message !== null) return;
      // a valid d_model also clears a heads message it caused (and the other way round)
      const other = name === 'transformer_dmodel' ? this.inputs.transformer_heads : name === 'transformer_heads' ? this.inputs.transformer_dmodel : undefined;
      if (other?.getAttribute('aria-invalid') === 'true' && settingProblem(t, state, name === 'transformer_dmodel' ? 'transformer_heads' : 'transformer_dmodel', other.value) === null) setFieldError(other, null);
      const value = Number(input.value);
      if (value === state.get(name)) return;
      this.lastChanged = name;
      onChange(name, String(value));
      state.set(name, value);
    });
    this.inputs[name] = input;
    return field(t(NUMBER_LABELS[name]), input, state.isHidden(name));
  }

  /** the sentence box (outside these fields), whose refusal a task switch clears */
  #textBox(): HTMLElement {
    return this.element.closest('.transformer-section')?.querySelector<HTMLElement>('[data-testid="transformer-text"]') ?? this.element;
  }

  /**
   * Shows the state's values of `changed` (all when omitted): a box holding a refused value keeps it,
   * and a change to another setting leaves alone what the reader is typing in this one.
   */
  sync(changed?: readonly PropName[]): void {
    for (const [name, control] of Object.entries(this.inputs)) {
      if (changed && !changed.includes(name as PropName)) continue;
      if (control.getAttribute('aria-invalid') === 'true') continue;
      const value = this.#state.get(name as PropName);
      control.value = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    }
  }

  /** A message under the field `name` (the core refused the model); null clears it. */
  showError(name: PropName | null, message: string | null): void {
    const control = name ? this.inputs[name] : undefined;
    if (control) setFieldError(control, message);
  }
}
