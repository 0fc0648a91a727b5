// The progress of `attention-lab train`. --progress text: a line every --log-every steps (loss,
// token accuracy where the model has one, the held-out evaluation when there is one, examples/s,
// steps/s and the ETA); json: the same as one JSON object a line, for scripts; none: only the
// first and last lines; auto: text, plus a live line on stderr between two lines when stderr is a
// terminal (never when piped, so logs hold no carriage returns).
import { duration, fixed, pct } from './format.mjs';

/** A translator's held-out evaluation (Seq2Seq and Transformer sessions' evaluate()). */
export const TRANSLATOR_EVALUATION = {
  accuracy: true,
  json: (ev) => ({ loss: ev.loss, tokenAccuracy: ev.tokenAccuracy, exactMatch: ev.exactMatch, examples: ev.examples, onTrainingData: ev.heldOutIsTrainingData }),
  text: (ev) => `${ev.heldOutIsTrainingData ? 'eval on the training pairs' : 'held-out'}: loss ${fixed(ev.loss)}  ` +
    `tok-acc ${pct(ev.tokenAccuracy)}  exact ${pct(ev.exactMatch)} (${ev.examples})`,
};

/**
 * `evaluation` says how the model's evaluate() result reads ({text, json}) and whether its train()
 * results carry a token accuracy (`accuracy`).
 */
export function makeProgress(o, batchSize, print, evaluation = TRANSLATOR_EVALUATION) {
  const mode = o.progress === 'auto' ? 'text' : o.progress;
  const live = o.progress === 'auto' && Boolean(process.stderr.isTTY);
  const json = (event, fields) => print(JSON.stringify({ event, ...fields }));
  const w = String(o.steps).length;
  let lossSum = 0, lossN = 0, accSum = 0, accN = 0, exSince = 0, msSince = 0, trainMs = 0, done = 0, shown = false;
  const stepsPerSecond = () => (trainMs > 0 ? (done * 1000) / trainMs : 0);
  const eta = (at) => { const v = stepsPerSecond(); return v > 0 ? ((o.steps - at) / v) : null; };
  const clearLive = () => { if (shown) process.stderr.write('\r\x1b[K'); shown = false; };
  const evalText = (ev) => ` | ${evaluation.text(ev)}`;
  const accText = () => (evaluation.accuracy ? `  tok-acc ${accN ? pct(accSum / accN) : '-'}` : '');
  const speedText = (at) => {
    const ex = msSince > 0 ? Math.round((exSince * 1000) / msSince) : 0;
    const left = eta(at);
    return `${ex.toLocaleString('en-US')} ex/s  ${stepsPerSecond().toFixed(1)} steps/s` + (at < o.steps && left !== null ? `  ETA ${duration(left * 1000)}` : '');
  };
  return {
    /** The first line: `text`, or in JSON the start event with `fields`. */
    start(text, fields) {
      if (mode === 'json') json('start', { steps: o.steps, ...fields });
      else print(text);
    },
    /** Adds the losses and accuracy of `ms` of training. */
    steps(losses, [as, an], ms) {
      for (const l of losses) { lossSum += l; ++lossN; }
      accSum += as; accN += an;
      exSince += losses.length * batchSize; msSince += ms; trainMs += ms; done += losses.length;
    },
    /** The line of step `at`, with the held-out evaluation `ev` (or null); `final`: evaluation only. */
    line(at, ev, final = false) {
      clearLive();
      if (mode === 'json') {
        json(final ? 'evaluation' : 'progress', { step: at, steps: o.steps, ...(final ? {} : { loss: lossN ? lossSum / lossN : null,
          ...(evaluation.accuracy ? { tokenAccuracy: accN ? accSum / accN : null } : {}), stepsPerSecond: Number(stepsPerSecond().toFixed(2)),
          etaSeconds: eta(at) === null ? null : Math.round(eta(at)) }),
        ...(ev ? { heldOut: evaluation.json(ev) } : {}) });
      } else if (mode === 'text') {
        const head = `step ${String(at).padStart(w)}/${o.steps}`;
        print(final ? `${head}${evalText(ev)}`
          : `${head}  loss ${fixed(lossN ? lossSum / lossN : NaN)}${accText()}${ev ? evalText(ev) : ''} | ${speedText(at)}`);
      }
      if (!final) lossSum = lossN = accSum = accN = exSince = msSince = 0;
    },
    /** Between two lines: the live line on a terminal. */
    live(at) {
      if (!live) return;
      process.stderr.write(`\r\x1b[Kstep ${at}/${o.steps}  ${speedText(at)}`);
      shown = true;
    },
    /** The steps since the last line, if any (after Ctrl-C or divergence). */
    flush(at) {
      if (lossN > 0) this.line(at, null);
      clearLive();
    },
    checkpoint(at, bytes) {
      clearLive();
      if (mode === 'json') json('checkpoint', { step: at, file: o.out, bytes });
      else if (mode === 'text') print(`checkpoint: wrote ${o.out} after step ${at}`);
    },
    done(file, steps, bytes, totalMs, parameters) {
      clearLive();
      if (mode === 'json') return json('done', { file, step: steps, bytes, trainSeconds: trainMs / 1000, totalSeconds: totalMs / 1000 });
      print(`wrote ${file}: ${steps} steps, ${parameters.toLocaleString('en-US')} parameters, ` +
        `${(bytes / 1024).toFixed(0)} KiB; trained in ${duration(trainMs)} (total ${duration(totalMs)})`);
    },
  };
}
