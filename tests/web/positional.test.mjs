// The positional-encoding figure's numbers (web/src/diagrams/positional.ts): the sinusoid table
// against values computed independently (Python's math.sin/cos of pos / 10000^(2i/d), printed to
// 12 decimals), and self-attention over 我 爱 我: the two 我 rows are equal without positions and
// differ with them. Run: node --test tests/web/positional.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { sinusoidTable, positionDemo, selfAttention, rowDistance } = await loadWeb('diagrams/positional');

// python3: [f(pos / 10000 ** (2 * (i // 2) / 6)) for i, f in enumerate([sin, cos] * 3)], pos 0..3
const EXPECTED_D6 = [
  [0, 1, 0, 1, 0, 1],
  [0.841470984808, 0.540302305868, 0.046399223465, 0.998922976041, 0.002154433023, 0.999997679206],
  [0.909297426826, -0.416146836547, 0.092698500779, 0.995694224124, 0.004308856047, 0.999990716837],
  [0.14112000806, -0.9899924966, 0.13879810108, 0.990320699136, 0.00646325907, 0.999979112923],
];

describe('positional encoding', () => {
  test('the sinusoid table matches sin(pos/10000^(2i/d)) and cos(…) computed independently', () => {
    const pe = sinusoidTable(4, 6);
    assert.equal(pe.length, 24);
    EXPECTED_D6.forEach((row, pos) => row.forEach((v, c) => assert.ok(Math.abs(pe[pos * 6 + c] - v) < 1e-11, `PE[${pos}][${c}] = ${pe[pos * 6 + c]}, expected ${v}`)));
    // d = 512, the paper's size: columns 100/101 at position 10, column 510 at position 37
    const big = sinusoidTable(38, 512);
    assert.ok(Math.abs(big[10 * 512 + 100] - 0.9964723308680214) < 1e-12);
    assert.ok(Math.abs(big[10 * 512 + 101] - -0.08392195073073737) < 1e-12);
    assert.ok(Math.abs(big[37 * 512 + 510] - 0.003835532430873412) < 1e-12);
  });

  test('an odd size ends on a sine column', () => {
    const pe = sinusoidTable(2, 3);
    assert.ok(Math.abs(pe[3 + 2] - Math.sin(1 / 10000 ** (2 / 3))) < 1e-15);
  });

  test('self-attention: every row of weights sums to 1; a one-word sentence attends to itself', () => {
    const { weights } = positionDemo(['我', '爱', '我'], 8, 1, true);
    for (const row of weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    const id = [[1, 0], [0, 1]];
    const { output, weights: w } = selfAttention([[2, 3]], id, id, id);
    assert.deepEqual(w, [[1]]);
    assert.deepEqual(output, [[2, 3]]);
  });

  test('我 爱 我: the two 我 rows are equal without positions and differ with them, for several seeds', () => {
    for (const seed of [1, 2, 3, 42]) {
      const plain = positionDemo(['我', '爱', '我'], 8, seed, false);
      assert.equal(rowDistance(plain.input[0], plain.input[2]), 0);
      assert.equal(rowDistance(plain.output[0], plain.output[2]), 0, `seed ${seed}: equal words, equal outputs`);
      assert.ok(rowDistance(plain.output[0], plain.output[1]) > 1e-3, `seed ${seed}: 爱 differs from 我`);
      const placed = positionDemo(['我', '爱', '我'], 8, seed, true);
      assert.ok(rowDistance(placed.output[0], placed.output[2]) > 0.05, `seed ${seed}: positions tell the two 我 apart (${rowDistance(placed.output[0], placed.output[2])})`);
    }
  });
});
