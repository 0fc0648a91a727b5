// docs/cli.md cannot drift: its example outputs are what the commands print now
// (scripts/cli-docs.mjs reruns every `<!-- cli: ARGS -->` block and compares).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generate } from '../../scripts/cli-docs.mjs';

test('docs/cli.md shows what the commands print (node scripts/cli-docs.mjs regenerates it)', () => {
  const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  assert.ok((doc.match(/<!-- cli: /g) ?? []).length >= 15, 'the examples are generated');
  assert.equal(generate(), doc);
});
