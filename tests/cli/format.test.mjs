// The command line's durations ("trained in …", the ETA of the progress lines): seconds with a
// tenth under a minute, minutes and seconds under an hour, then hours and minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duration } from '../../wasm/js/cli/format.mjs';

test('durations read as a person says them, an ETA of hours included', () => {
  assert.equal(duration(4200), '4.2s');
  assert.equal(duration(65_000), '1m05s');
  assert.equal(duration(3_599_000), '59m59s');
  assert.equal(duration(3_600_000), '1h00m');
  assert.equal(duration(77_376_000), '21h29m'); // was "1289m36s"
});
