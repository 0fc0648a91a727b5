// §3.3's sentences that depend on the task and the settings: the intro (with the settings in
// use), the "Try this" prompts, the message for a number outside its field's limits (named by the
// field's label), and the time left to the
// end of the recipe at the measured speed.
import type { Seq2SeqInfo } from '#types/seq2seq';
import { fill } from '../i18n';
import { limits, type RangedName } from '../state';
import type { TrainSettings } from './translate-train';

type T = (key: string) => string;

export function introText(t: T, s: TrainSettings, info: Seq2SeqInfo | null, steps: number): string {
  return fill(t(`translate.intro.${s.task}`), {
    cell: s.cell.toUpperCase(),
    hidden: s.hidden,
    attention: s.score === 'none' ? t('translate.intro.plain') : fill(t('translate.intro.attention'), { score: t(`translate.score.${s.score}`) }),
    lr: s.lr,
    steps,
    batch: info?.batchSize ?? 32,
    train: info?.taskOptions.train || 5000,
    heldOut: info?.taskOptions.heldOut || 500,
  });
}

/** The "Try this" prompts of `task`: what to change and what to watch (translate.try.<task>.1, .2, …). */
export function tryPrompts(t: T, task: string): string[] {
  const prompts: string[] = [];
  for (let i = 1; ; i++) {
    const key = `translate.try.${task}.${i}`;
    const text = t(key);
    if (text === key) return prompts;
    prompts.push(text);
  }
}

/**
 * What is wrong with `typed` for the number setting `name`, in the reader's terms ('' if
 * nothing): not a number, or outside the state table's limits (or not whole, for an int).
 */
export function numberProblem(name: RangedName, typed: string, label: string, t: T): string {
  const def = limits(name);
  const value = typed.trim();
  const n = Number(value);
  if (value === '' || !Number.isFinite(n)) return fill(t('translate.error.number'), { label, value });
  if (n < def.min || n > def.max || (def.integer && !Number.isInteger(n))) {
    return fill(t('translate.error.range'), { label, min: def.min, max: def.max, value });
  }
  return '';
}

/**
 * "About 12 s left" to the end of the recipe at `stepsPerSecond` (measured over the current run);
 * '' when nothing is left or no speed is measured yet.
 */
export function timeLeftText(t: T, stepsLeft: number, stepsPerSecond: number): string {
  if (stepsLeft <= 0 || !(stepsPerSecond > 0) || !Number.isFinite(stepsPerSecond)) return '';
  const seconds = Math.max(1, Math.ceil(stepsLeft / stepsPerSecond));
  const time =
    seconds < 60 ? fill(t('translate.eta.seconds'), { s: seconds }) : fill(t('translate.eta.minutes'), { m: Math.floor(seconds / 60), s: seconds % 60 });
  return fill(t('translate.eta'), { time });
}
