// The shelf that carries a section's trained models over a change of the page's language
// (web/src/sections/parked.ts): adopted only with the settings they were trained with, and
// everything not adopted discarded (its worker models deleted) exactly once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { parkingSlot, discardParked, parkedCount } = await loadWeb('sections/parked');

describe('parked trained state', () => {
  test('adopted by the next mount with the same settings, and taken off the shelf', () => {
    const slot = parkingSlot('why');
    const discarded = [];
    const run = { step: 7 };
    slot.park('a', run, (r) => discarded.push(r));
    assert.equal(parkedCount(), 1);
    assert.equal(slot.adopt('a'), run);
    assert.equal(parkedCount(), 0);
    assert.equal(slot.adopt('a'), null, 'adopted once');
    discardParked();
    assert.deepEqual(discarded, [], 'an adopted state is never discarded');
  });

  test('other settings: discarded, not adopted', () => {
    const slot = parkingSlot('translate');
    const discarded = [];
    slot.park('gru', 'models', (s) => discarded.push(s));
    assert.equal(slot.adopt('lstm'), null);
    assert.deepEqual(discarded, ['models']);
    assert.equal(parkedCount(), 0);
  });

  test('not adopted by anyone: discarded once the new sections are mounted', () => {
    const discarded = [];
    parkingSlot('why').park('a', 1, (s) => discarded.push(s));
    parkingSlot('transformer').park('b', 2, (s) => discarded.push(s));
    discardParked();
    discardParked();
    assert.deepEqual(discarded.sort(), [1, 2]);
    assert.equal(parkedCount(), 0);
  });

  test('parked twice before an adoption: the older state is discarded, the newer one adopted', () => {
    const slot = parkingSlot('transformer');
    const discarded = [];
    slot.park('a', 'old', (s) => discarded.push(s));
    slot.park('a', 'new', (s) => discarded.push(s));
    assert.deepEqual(discarded, ['old']);
    assert.equal(slot.adopt('a'), 'new');
    assert.deepEqual(discarded, ['old']);
  });

  test('sections have their own places', () => {
    const discarded = [];
    parkingSlot('why').park('k', 'why', (s) => discarded.push(s));
    parkingSlot('translate').park('k', 'translate', (s) => discarded.push(s));
    assert.equal(parkingSlot('translate').adopt('k'), 'translate');
    assert.equal(parkingSlot('why').adopt('k'), 'why');
    assert.deepEqual(discarded, []);
  });
});
