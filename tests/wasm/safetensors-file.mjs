// Test helpers: read and write .safetensors bytes in JS (independently of the core's reader), so
// tests can damage a file in one precise way and check the core's message.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REF = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'reference');

export const referenceBytes = (file) => new Uint8Array(readFileSync(join(REF, file)));

/** bytes → { header (the JSON object), data (the data buffer, a copy) } */
export function parseSafetensors(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  return { header, data: bytes.slice(8 + n) };
}

/** { header, data } → bytes; `length` overrides the stored header length. */
export function writeSafetensors({ header, data }, length) {
  const text = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(length ?? text.length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}

/** The bytes of `file` after edit({ header, data }) changed them. */
export function editedFile(file, edit) {
  const f = parseSafetensors(referenceBytes(file));
  edit(f);
  return writeSafetensors(f);
}
