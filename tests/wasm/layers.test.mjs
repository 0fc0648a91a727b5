// The core's layers (docs/architecture.md) as its #include lines give them: kernels and base,
// then io and attention, then the sequence layer, then the models. A file includes its own
// folder and the layers below it, never a layer above, and no model folder (rnn/, transformer/,
// gpt/) includes another: what two models share belongs in sequence/ or below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SRC = new URL('../../wasm/src/', import.meta.url).pathname;

/** Each folder of wasm/src and its layer; `base` is wasm/src itself. */
const LAYERS = {
  base: 0,
  kernels: 0,
  io: 1,
  attention: 1,
  sequence: 2,
  rnn: 3,
  transformer: 3,
  gpt: 3,
};

/** Every file of the tree under `root` as [folder, name, text]. */
function sources(root) {
  const out = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      for (const name of readdirSync(join(root, entry.name))) {
        if (/\.(h|cpp)$/.test(name)) {
          out.push([entry.name, name, readFileSync(join(root, entry.name, name), 'utf8')]);
        }
      }
    } else if (/\.(h|cpp)$/.test(entry.name)) {
      out.push(['base', entry.name, readFileSync(join(root, entry.name), 'utf8')]);
    }
  }
  return out;
}

/** The broken rules of the tree under `root`, one sentence each. */
export function layerViolations(root) {
  const problems = [];
  for (const [folder, name, text] of sources(root)) {
    const where = folder === 'base' ? name : `${folder}/${name}`;
    if (!(folder in LAYERS)) {
      problems.push(`${where}: folder ${folder}/ has no layer in tests/wasm/layers.test.mjs`);
      continue;
    }
    for (const [, path] of text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)) {
      const target = path.includes('/') ? path.split('/')[0] : 'base';
      if (target === folder) continue;
      if (!(target in LAYERS)) {
        problems.push(`${where} includes ${path}, which is in no folder of the layer table`);
      } else if (LAYERS[target] === 3 && LAYERS[folder] === 3) {
        problems.push(`${where} includes ${path}: one model includes another (move what they share to sequence/)`);
      } else if (LAYERS[target] > LAYERS[folder] || (LAYERS[target] === LAYERS[folder] && LAYERS[folder] !== 0)) {
        problems.push(`${where} includes ${path}, a layer above or beside its own`);
      }
    }
  }
  return problems;
}

test('no file of wasm/src includes a layer above its own, and no model includes another', () => {
  assert.deepEqual(layerViolations(SRC), []);
});

test('the check finds a model that includes another, a sequence file that includes a model, and an unknown folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const folder of ['transformer', 'rnn', 'gpt', 'sequence', 'seq2seq']) mkdirSync(join(root, folder));
    writeFileSync(join(root, 'tensor.h'), '#include "kernels/gemm.h"\n');
    writeFileSync(join(root, 'transformer', 'model.h'), '#include "sequence/batch.h"\n#include "rnn/model.h"\n');
    writeFileSync(join(root, 'gpt', 'session.cpp'), '#include "gpt/session.h"\n  #  include "transformer/model.h"\n');
    writeFileSync(join(root, 'rnn', 'model.h'), '#include "tensor.h"\n#include "sequence/batch.h"\n');
    writeFileSync(join(root, 'sequence', 'decode.h'), '#include "rnn/model.h"  // ParamView\n');
    writeFileSync(join(root, 'seq2seq', 'vocab.h'), '#include "tensor.h"\n');
    assert.deepEqual(layerViolations(root).sort(), [
      'gpt/session.cpp includes transformer/model.h: one model includes another (move what they share to sequence/)',
      'seq2seq/vocab.h: folder seq2seq/ has no layer in tests/wasm/layers.test.mjs',
      'sequence/decode.h includes rnn/model.h, a layer above or beside its own',
      'transformer/model.h includes rnn/model.h: one model includes another (move what they share to sequence/)',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
