/** The form of a regular Tang poem, on a poem or a GPT sample (gpt-form.mjs). */
export interface FormVerdict {
  readonly ok: boolean;
  /** why not, in words ('' when ok) */
  readonly why: string;
  readonly sentences: number;
  readonly length: number;
}
export const POEM_START: string;
export const SAMPLE_CAP: number;
export const FORM_TEMPERATURE: number;
export const FORM_SEEDS: readonly number[];
export function samplePoem(generated: string): string | null;
export function bodyLines(poem: string): string[];
export function poemForm(poem: string): FormVerdict;
export function sampleForm(generated: string): FormVerdict;
export function regularPoems(text: string): string;
export function formRate(generated: readonly string[]): { verdicts: FormVerdict[]; rate: number };
