// The progress of `attention-lab train`. --progress text: a line every --log-every steps (loss,
// token accuracy where the model has one, the held-out evaluation when there is one, examples/s,
// steps/s and the ETA); json: the same as one JSON object a line, for scripts; none: only the
// first and last lines; auto: text, plus a live line on stderr between two lines when stderr is a
// terminal (never when piped, so logs hold no carriage returns).
import { duration, fixed, pct } from './format.mjs';
/** @import { Print } from './format.mjs' */
/** @import { OptionValues } from './options.mjs' */
/** @import { EvaluateResult } from '../types/attention-lab.js' */

/**
 * How a model's evaluate() result `E` reads, as text and in JSON, and whether its train() results
 * carry a token accuracy (`accuracy`).
 * @template E
 * @typedef {{ accuracy: boolean, json: (ev: E) => object, text: (ev: E) => string }} Evaluation
 */

/**
 * What makeProgress returns, for evaluate() results `E`.
 * @template E
 * @typedef {ReturnType<typeof makeProgress<E>>} Progress
 */

/**
 * A translator's held-out evaluation (Seq2Seq and Transformer sessions' evaluate()).
 * @type {Evaluation<EvaluateResult>}
 */
export const TRANSLATOR_EVALUATION = {
  accuracy: true,
  json: (ev) => ({ loss: ev.loss, tokenAccuracy: ev.tokenAccuracy, exactMatch: ev.exactMatch, examples: ev.examples, onTrainingData: ev.heldOutIsTrainingData }),
  text: (ev) => `${ev.heldOutIsTrainingData ? 'eval on the training pairs' : 'held-out'}: loss ${fixed(ev.loss)}  ` +
    `tok-acc ${pct(ev.tokenAccuracy)}  exact ${pct(ev.exactMatch)} (${ev.examples})`,
};

/**
 * `evaluation` says how the model's evaluate() result reads ({text, json}) and whether its train()
 * results carry a token accuracy (`accuracy`).
 * @template E
 * @param {Pick<OptionValues<'train'>, 'progress' | 'steps' | 'out'>} o
 * @param {number} batchSize
 * @param {Print} print
 * @param {Evaluation<E>} evaluation
 */
export function makeProgress(o, batchSize, print, evaluation) {
  const mode = o.progress === 'auto' ? 'text' : o.progress;
  const live = o.progress === 'auto' && Boolean(process.stderr.isTTY);
  const json = (/** @type {string} */ event, /** @type {object} */ fields) => print(JSON.stringify({ event, ...fields }));
  const w = String(o.steps).length;
  let lossSum = 0, lossN = 0, accSum = 0, accN = 0, exSince = 0, msSince = 0, trainMs = 0, done = 0, shown = false;
  const stepsPerSecond = () => (trainMs > 0 ? (done * 1000) / trainMs : 0);
  const eta = (/** @type {number} */ at) => { const v = stepsPerSecond(); return v > 0 ? ((o.steps - at) / v) : null; };
  const clearLive = () => { if (shown) process.stderr.write('\r\x1b[K'); shown = false; };
  const evalText = (/** @type {E} */ ev) => ` | ${evaluation.text(ev)}`;
  const accText = () => (evaluation.accuracy ? `  tok-acc ${accN ? pct(accSum / accN) : '-'}` : '');
  const speedText = (/** @type {number} */ at) => {
    const ex = msSince > 0 ? Math.round((exSince * 1000) / msSince) : 0;
    const left = eta(at);
    return `${ex.toLocaleString('en-US')} ex/s  ${stepsPerSecond().toFixed(1)} steps/s` + (at < o.steps && left !== null ? `  ETA ${duration(left * 1000)}` : '');
  };
  return {
    /**
     * The first line: `text`, or in JSON the start event with `fields`.
     * @param {string} text
     * @param {object} fields
     */
    start(text, fields) {
      if (mode === 'json') json('start', { steps: o.steps, ...fields });
      else print(text);
    },
    /**
     * Adds the losses and accuracy of `ms` of training.
     * @param {Iterable<number> & ArrayLike<number>} losses
     * @param {[number, number]} accuracy the token accuracy as [sum, count]
     * @param {number} ms
     */
    steps(losses, [as, an], ms) {
      for (const l of losses) { lossSum += l; ++lossN; }
      accSum += as; accN += an;
      exSince += losses.length * batchSize; msSince += ms; trainMs += ms; done += losses.length;
    },
    /**
     * The line of step `at`, with the held-out evaluation `ev` (or null); `final`: evaluation only.
     * @param {number} at
     * @param {E | null} ev
     * @param {boolean} [final]
     */
    line(at, ev, final = false) {
      clearLive();
      if (mode === 'json') {
        const left = eta(at);
        json(final ? 'evaluation' : 'progress', { step: at, steps: o.steps, ...(final ? {} : { loss: lossN ? lossSum / lossN : null,
          ...(evaluation.accuracy ? { tokenAccuracy: accN ? accSum / accN : null } : {}), stepsPerSecond: Number(stepsPerSecond().toFixed(2)),
          etaSeconds: left === null ? null : Math.round(left) }),
        ...(ev ? { heldOut: evaluation.json(ev) } : {}) });
      } else if (mode === 'text') {
        const head = `step ${String(at).padStart(w)}/${o.steps}`;
        // a final line is the evaluation's: it always has one
        print(final ? `${head}${evalText(/** @type {E} */ (ev))}`
          : `${head}  loss ${fixed(lossN ? lossSum / lossN : NaN)}${accText()}${ev ? evalText(ev) : ''} | ${speedText(at)}`);
      }
      if (!final) lossSum = lossN = accSum = accN = exSince = msSince = 0;
    },
    /**
     * Between two lines: the live line on a terminal.
     * @param {number} at
     */
    live(at) {
      if (!live) return;
      process.stderr.write(`\r\x1b[Kstep ${at}/${o.steps}  ${speedText(at)}`);
      shown = true;
    },
    /**
     * The steps since the last line, if any (after Ctrl-C or divergence).
     * @param {number} at
     */
    flush(at) {
      if (lossN > 0) this.line(at, null);
      clearLive();
    },
    /**
     * @param {number} at
     * @param {number} bytes
     */
    checkpoint(at, bytes) {
      clearLive();
      if (mode === 'json') json('checkpoint', { step: at, file: o.out, bytes });
      else if (mode === 'text') print(`checkpoint: wrote ${o.out} after step ${at}`);
    },
    /**
     * @param {string} file
     * @param {number} steps
     * @param {number} bytes
     * @param {number} totalMs
     * @param {number} parameters
     */
    done(file, steps, bytes, totalMs, parameters) {
      clearLive();
      if (mode === 'json') return json('done', { file, step: steps, bytes, trainSeconds: trainMs / 1000, totalSeconds: totalMs / 1000 });
      print(`wrote ${file}: ${steps} steps, ${parameters.toLocaleString('en-US')} parameters, ` +
        `${(bytes / 1024).toFixed(0)} KiB; trained in ${duration(trainMs)} (total ${duration(totalMs)})`);
    },
  };
}
