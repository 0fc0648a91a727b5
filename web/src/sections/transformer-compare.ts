// §4's comparison panel: its title, explanation and button. The measurement and its figure
// (transformer-compare-run.ts) load when the reader presses the button, so a page with the section
// or its widget does not download them up front.
import { fill } from '../i18n';
import type { LabClient } from '../worker/protocol';
import { button, el, errorText } from './dom';
import { RECIPE_STEPS, RECIPES } from './translate-recipes';
import { trainingDefaults } from '../../../wasm/js/task-defaults.mjs';
import type { CompareView } from './transformer-compare-run';
import type { TransformerTrainer } from './transformer-train';

type T = (key: string) => string;

/** The core's batch size for a task whose defaults set none (zh-en). */
const CORE_BATCH = 32;

/** The comparison's title, explanation, button and result, below the section. */
export class ComparePanel {
  readonly element = el('div', 'transformer-compare');
  readonly #t: T;
  readonly #lab: LabClient;
  readonly #status = el('p', 'transformer-note transformer-compare-status');
  readonly #explain = el('p', 'transformer-note');
  readonly #button: HTMLButtonElement;
  #view: CompareView | null = null;
  #trainer: TransformerTrainer | null = null;

  /** `beforeRun`: pauses the section's training (the comparison trains in the same worker) */
  constructor(host: HTMLElement, t: T, lab: LabClient, beforeRun: () => void) {
    this.#t = t;
    this.#lab = lab;
    this.element.dataset.testid = 'transformer-compare';
    this.#button = button(t('transformer.compare.run'), 'transformer-compare-run', () => {
      beforeRun();
      void this.#run();
    });
    this.#status.dataset.testid = 'transformer-compare-status';
    this.element.append(el('h3', undefined, t('transformer.compare.title')), this.#explain, this.#button, this.#status);
    host.append(this.element);
  }

  /** The model to compare; a new model clears the last result. */
  setTrainer(trainer: TransformerTrainer): void {
    if (trainer === this.#trainer) return;
    this.#trainer = trainer;
    this.#view?.element.remove();
    this.#view?.destroy();
    this.#view = null;
    this.#status.textContent = '';
    const task = trainer.settings.task;
    const recipe = RECIPES[task];
    this.#explain.textContent = fill(this.#t('transformer.compare.explain'), { cell: recipe.cell.toUpperCase(), hidden: recipe.hidden, steps: RECIPE_STEPS[task], batch: trainingDefaults(task, true).batchSize ?? CORE_BATCH, examples: 500 });
  }

  async #run(): Promise<void> {
    const t = this.#t;
    const trainer = this.#trainer;
    if (!trainer) return;
    if (trainer.step === 0) {
      this.#status.textContent = t('transformer.compare.needTraining');
      return;
    }
    this.#button.disabled = true;
    try {
      const { CompareView, measureComparison } = await import('./transformer-compare-run');
      const rows = await measureComparison(this.#lab, trainer.settings.task, trainer.settings.seed, trainer, (text) => (this.#status.textContent = text), t);
      if (trainer !== this.#trainer) return;
      this.#view ??= new CompareView(this.element, t);
      this.#view.update(rows);
      this.#status.textContent = fill(t('transformer.compare.done'), { step: trainer.step });
      this.element.dataset.measuredAt = String(trainer.step);
    } catch (err) {
      if (trainer === this.#trainer) this.#status.textContent = `${t('error.prefix')}${errorText(err)}`;
    } finally {
      this.#button.disabled = false;
    }
  }

  destroy(): void {
    this.#trainer = null;
    this.#view?.destroy();
  }
}
