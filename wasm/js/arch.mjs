// config.arch of the factories that make either kind of model (Seq2Seq.create in seq2seq.mjs,
// Seq2SeqModel.create in seq2seq-model.mjs): 'rnn' (the default, the recurrent encoder-decoder)
// or 'transformer', whose binding has the same methods, so one JS class wraps both.
import { unwrap } from './unwrap.mjs';

/**
 * The new embind handle of the model config.arch names: core[transformer](config) for
 * 'transformer' (the 'transformer' and full modules have it), core[recurrent](config without 'arch', a key the
 * recurrent binding does not know) for 'rnn' or no arch. Throws an Error for any other arch and
 * rethrows the binding's {error}.
 */
export function createByArch(core, config, { recurrent, transformer }) {
  const arch = config?.arch;
  // A key that would have no effect is an error, never ignored ('dot', the default, is harmless).
  if (config?.attention === false && config.score !== undefined && config.score !== 'dot') {
    throw new Error(`config.score ${JSON.stringify(String(config.score))} has no effect with attention: false (leave out score, or set attention: true)`);
  }
  if (arch === 'transformer') {
    if (typeof core[transformer] !== 'function') {
      throw new Error("this module variant has no Transformer: load variant 'transformer' or 'full'");
    }
    return unwrap(core[transformer](config));
  }
  if (arch !== undefined && arch !== 'rnn') {
    throw new Error(`config.arch must be 'rnn' or 'transformer' (got ${JSON.stringify(String(arch))})`);
  }
  let rnn = config ?? null;
  if (rnn !== null && typeof rnn === 'object' && Object.hasOwn(rnn, 'arch')) {
    rnn = { ...rnn };
    delete rnn.arch;
  }
  if (typeof core[recurrent] !== 'function') {
    throw new Error("this module variant has only the Transformer (config.arch: 'transformer'): load variant 'seq2seq' or 'full' for the recurrent translators");
  }
  return unwrap(core[recurrent](rnn));
}
