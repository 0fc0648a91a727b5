// Translators in PyTorch's format: a .safetensors state dict with the config and vocabularies in
// its __metadata__ (docs/safetensors.md; bindings in wasm/bindings/safetensors_bindings.cpp).
// lab.loadSeq2Seq(bytes) hands .safetensors files here (detected by content) and returns an
// ImportedSeq2Seq; Seq2Seq.save({ format: 'safetensors' }) exports a training session.
// attention-lab.mjs imports this file only with a build that reads model files (not the widgets').
// The wrapper OWNS the C++ object: call delete() once; any call after delete() throws.
// Types: the JSDoc here; the results in types/seq2seq.d.ts.

import { LIVE, OwnedTranslator } from './owned-handle.mjs';
import { unwrap } from './unwrap.mjs';
import { safetensorsNames } from './seq2seq.mjs';
/** @import { Core } from './types/core.js' */
/** @import { EmbindHandle } from './owned-handle.mjs' */
/** @import { ImportedSeq2SeqInfo, ImportedTransformerInfo, StateDictNames, TeacherForcedResult } from './types/seq2seq.js' */

/**
 * True for a .safetensors file (an 8-byte length, then the JSON header: '{' and '"', '}' or a
 * space), not a .atlb one (which starts with "ATLB"). Validity is the reader's business.
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
export function isSafetensors(bytes) {
  const atlb = bytes.length >= 4 && bytes[0] === 0x41 && bytes[1] === 0x54 && bytes[2] === 0x4c && bytes[3] === 0x42;
  return !atlb && bytes.length >= 10 && bytes[8] === 0x7b && [0x22, 0x7d, 0x20, 0x0a].includes(bytes[9]);
}

/**
 * A translator read from a .safetensors file: decode it (greedy or beam, with the same trace as
 * Seq2Seq.translate), read its teacher-forced logits and attention, its weights and vocabularies
 * (in the file's order, ids as in PyTorch), and write it again. It has no task, so it does not
 * train or evaluate here. Its vocabularies keep the file's order (ids are PyTorch's); without <unk>,
 * an unknown word is an Error. Call delete() when done.
 * @extends {OwnedTranslator<ImportedSeq2SeqInfo | ImportedTransformerInfo>}
 */
export class ImportedSeq2Seq extends OwnedTranslator {
  /**
   * Use AttentionLab.loadSeq2Seq. Takes ownership of `handle`.
   * @internal
   * @param {EmbindHandle} handle
   */
  constructor(handle) {
    super(handle, 'Seq2Seq model');
  }

  /**
   * @internal
   * @param {Core} core
   * @param {Uint8Array} bytes
   * @returns {ImportedSeq2Seq}
   */
  static load(core, bytes) {
    return new ImportedSeq2Seq(unwrap(core.importSafetensors(bytes)));
  }

  /**
   * 'rnn' or 'transformer', as info().arch and the sessions' arch.
   * @returns {'rnn' | 'transformer'}
   */
  get arch() {
    return this.info().arch;
  }

  /**
   * Decoder fed <sos> + target: logits (T, Vt) and attention (T, S) or null, as PyTorch computes
   * them. The attention is null for a Transformer (its translate() trace has every layer's and head's).
   * @param {string} source
   * @param {string} target
   * @returns {TeacherForcedResult}
   */
  teacherForced(source, target) {
    if (typeof source !== 'string' || typeof target !== 'string') {
      throw new Error('teacherForced(source, target): both must be strings');
    }
    return unwrap(this[LIVE]().teacherForced(source, target));
  }

  // translate, info, the vocabularies and delete: OwnedTranslator's. The vocabularies list every
  // token in id order, as the file does (reserved tokens included).

  /**
   * [{ name, tensor }] under the project's names (out.weight), copies.
   * @returns {{ name: string, tensor: { shape: number[], data: Float32Array } }[]}
   */
  params() {
    return unwrap(this[LIVE]().params());
  }

  /**
   * .safetensors bytes again (a model read from a file has no .atlb form: it has no task).
   * @param {{ format?: 'safetensors', names?: StateDictNames }} [options]
   * @returns {Uint8Array}
   */
  save(options) {
    const o = options ?? {};
    if (o.format !== undefined && o.format !== 'safetensors') {
      throw new Error("save(): a model loaded from .safetensors saves as { format: 'safetensors' } only (it has no task to resume)");
    }
    return unwrap(this[LIVE]().save(safetensorsNames(o)));
  }

  /**
   * Throws: a model read from a file has no task to train on.
   * @returns {never}
   */
  train() {
    throw new Error('train(): a model loaded from .safetensors has no task to train on; translate it, or train it in PyTorch');
  }

  /**
   * Throws: a model read from a file has no task; teacherForced() scores it.
   * @returns {never}
   */
  evaluate() {
    throw new Error('evaluate(): a model loaded from .safetensors has no task; use teacherForced(source, target)');
  }
}
