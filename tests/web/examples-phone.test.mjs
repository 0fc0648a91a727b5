// Every example page reads on a phone: it declares the device's width as its viewport, or a phone
// lays it out 980 px wide and shrinks its text to a few pixels.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const EXAMPLES = new URL('../../web/examples/', import.meta.url);

for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.html'))) {
  test(`${file}: a viewport of the device's width`, () => {
    const html = readFileSync(new URL(file, EXAMPLES), 'utf8');
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1" \/>/);
  });
}
