// §4's Transformer in the worker and its training history (trainer.ts: created on first use,
// trained as one stream in the worker, scored on the held-out set), and its translations.
import type { TransformerSeq2SeqConfig, TransformerSeq2SeqInfo, TransformerTranslateResult, TranslateOptions } from '#types/seq2seq';
import type { LabClient, RemoteSeq2Seq } from '../worker/protocol';
import { DivergedError, Trainer } from './trainer';
import { transformerConfig, type TransformerSettings } from './transformer-recipes';

/** Thrown by play() when the run diverged; its finished steps are already in the history. */
export class TransformerDivergedError extends DivergedError {}

export { EVALUATED_EXAMPLES } from './trainer';

export class TransformerTrainer extends Trainer<TransformerSeq2SeqInfo> {
  readonly settings: TransformerSettings;

  constructor(lab: LabClient, settings: TransformerSettings) {
    super(lab, TransformerDivergedError);
    this.settings = settings;
  }

  /** ms per step measured so far (null before any step) */
  get msPerStep(): number | null {
    return this.step > 0 ? this.trainMs / this.step : null;
  }

  protected config(): TransformerSeq2SeqConfig {
    return transformerConfig(this.settings);
  }

  // (the Transformer's session offers no heldOut(): the examples are the section's own)
  protected async loaded(model: RemoteSeq2Seq): Promise<void> {
    const [info, vocabulary] = await Promise.all([model.info(), model.vocabulary()]);
    this.info = info as unknown as TransformerSeq2SeqInfo;
    this.vocabulary = vocabulary;
  }

  /** Trains `steps` steps as one worker stream; `done` rejects with TransformerDivergedError on divergence. */
  play(steps: number, onProgress: () => void): { done: Promise<void>; stop(): void } {
    return this.playStream(steps, { onProgress });
  }

  async translate(text: string, options?: TranslateOptions): Promise<TransformerTranslateResult> {
    const model = await this.ready();
    return (await model.translate(text, options)) as unknown as TransformerTranslateResult;
  }
}
