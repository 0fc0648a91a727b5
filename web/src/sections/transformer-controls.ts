// §4's setting fields: the task, the architecture (layers, heads, d_model, feed-forward size, norm
// placement) and the run (peak rate, warm-up, steps). Each number is checked against the state
// table's limits (checkNumber) and, for the heads, against d_model (they must divide it), before
// it reaches the state: a refused value stays in its box with a message naming the field
// (setFieldError), and the model is left as it was.
import { limits, type AppState, type PropName } from '../state';
import { fill } from '../i18n';
import { checkNumber, el, field, select, setFieldError } from './dom';
import { headDivisors, TRANSFORMER_EXAMPLES, type TransformerTask } from './transformer-recipes';

type T = (key: string) => string;

export type NumberSetting = 'tf_layers' | 'tf_heads' | 'tf_dmodel' | 'tf_dff' | 'tf_lr' | 'tf_warmup' | 'tf_steps';

/** Each number setting's label key. */
export const NUMBER_LABELS: Record<NumberSetting, string> = {
  tf_layers: 'tf.layers',
  tf_heads: 'tf.heads',
  tf_dmodel: 'tf.dmodel',
  tf_dff: 'tf.dff',
  tf_lr: 'tf.lr',
  tf_warmup: 'tf.warmup',
  tf_steps: 'tf.steps',
};

/** The label key of every setting that makes a new model: all but the number of steps. */
export const MODEL_SETTING_LABELS: Partial<Record<PropName, string>> = {
  seed: 'tr.seed',
  tf_task: 'tf.task',
  tf_norm_first: 'tf.norm',
  ...Object.fromEntries(Object.entries(NUMBER_LABELS).filter(([name]) => name !== 'tf_steps')),
};

/** The message for `raw` in field `name` given the other settings (null: fine). */
export function settingProblem(t: T, state: AppState, name: NumberSetting, raw: string): string | null {
  const label = t(NUMBER_LABELS[name]);
  const message = checkNumber(t, label, raw, limits(name));
  if (message !== null) return message;
  const value = Number(raw);
  const dModel = name === 'tf_dmodel' ? value : state.get('tf_dmodel');
  const heads = name === 'tf_heads' ? value : state.get('tf_heads');
  if ((name === 'tf_heads' || name === 'tf_dmodel') && dModel % heads !== 0) {
    const reason = fill(t('tf.error.heads'), { dModel, divisors: headDivisors(dModel).join(', ') });
    return fill(t('field.named'), { label: t('tf.heads'), message: reason });
  }
  return null;
}

export class TransformerControls {
  readonly element = el('div', 'al-controls tf-settings');
  readonly inputs: Partial<Record<PropName, HTMLInputElement | HTMLSelectElement>> = {};
  readonly #t: T;
  readonly #state: AppState;
  /** the last field the reader changed (a refusal by the core is shown under it) */
  lastChanged: PropName | null = null;

  /** `onChange(label, value)`: a setting was changed by the reader (for the narration) */
  constructor(t: T, state: AppState, onChange: (name: PropName, value: string) => void) {
    this.#t = t;
    this.#state = state;
    const task = select([['dates', t('tf.task.dates')], ['zh-en', t('tf.task.zh-en')]], state.get('tf_task'), 'tf-task');
    task.addEventListener('change', () => {
      this.lastChanged = 'tf_task';
      onChange('tf_task', task.options[task.selectedIndex].text);
      // a task switch by the reader brings that task's first example along
      const next = task.value as TransformerTask;
      setFieldError(this.#textBox(), null);
      state.update({ tf_task: next, tf_text: TRANSFORMER_EXAMPLES[next][0] });
    });
    this.inputs.tf_task = task;
    const norm = select([['1', t('tf.norm.pre')], ['0', t('tf.norm.post')]], state.get('tf_norm_first') ? '1' : '0', 'tf-norm-first');
    norm.addEventListener('change', () => {
      this.lastChanged = 'tf_norm_first';
      onChange('tf_norm_first', norm.options[norm.selectedIndex].text);
      state.set('tf_norm_first', norm.value === '1');
    });
    this.inputs.tf_norm_first = norm;
    this.element.append(field(t('tf.task'), task, state.isHidden('tf_task')));
    for (const name of ['tf_layers', 'tf_heads', 'tf_dmodel', 'tf_dff'] as const) this.element.append(this.#number(name, onChange));
    this.element.append(field(t('tf.norm'), norm, state.isHidden('tf_norm_first')));
    for (const name of ['tf_lr', 'tf_warmup', 'tf_steps'] as const) this.element.append(this.#number(name, onChange));
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
      const other = name === 'tf_dmodel' ? this.inputs.tf_heads : name === 'tf_heads' ? this.inputs.tf_dmodel : undefined;
      if (other?.getAttribute('aria-invalid') === 'true' && settingProblem(t, state, name === 'tf_dmodel' ? 'tf_heads' : 'tf_dmodel', other.value) === null) setFieldError(other, null);
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
    return this.element.closest('.tf-section')?.querySelector<HTMLElement>('[data-testid="tf-text"]') ?? this.element;
  }

  /** Shows the state's values (a box holding a refused value keeps it). */
  sync(): void {
    for (const [name, control] of Object.entries(this.inputs)) {
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
