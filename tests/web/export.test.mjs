// CSV/JSON export formatting (web/src/export.ts), checked by parsing the output back with an
// independent RFC 4180 reader.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { matrixCsv, csvField, csvNumber, exportJson, safeFileName } = await loadWeb('export-files');

/** RFC 4180 reader: quoted fields with doubled quotes, CRLF records. */
function readCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  assert.equal(field, '', 'the CSV ends with CRLF');
  return rows;
}

test('a labelled matrix: header of column labels, one labelled row per line, every float32 digit kept', () => {
  const values = Float32Array.from([0.1, -2.5, 1 / 3, 1e-8, 12345.678, -0]);
  const csv = matrixCsv(['咖哥', '喜欢'], ['k1', 'k2', 'k3'], values);
  const rows = readCsv(csv);
  assert.deepEqual(rows[0], ['', 'k1', 'k2', 'k3']);
  assert.deepEqual(rows.map((r) => r[0]).slice(1), ['咖哥', '喜欢']);
  const parsed = rows.slice(1).flatMap((r) => r.slice(1).map(Number));
  assert.deepEqual(parsed.map(Math.fround), Array.from(values, (v) => (Object.is(v, -0) ? 0 : v)), 'numbers read back as the same float32');
  assert.equal(rows[2][3], '0', 'no "-0"');
  // float32 values in their shortest float32 form, not their float64 expansion
  assert.deepEqual(rows[1].slice(1), ['0.1', '-2.5', '0.33333334']);
  assert.equal(csvNumber(-1.9549002647399902), '-1.9549003');
  assert.equal(csvNumber(0.8994758725166321), '0.8994759');
  // a number no float32 can hold is written in full
  assert.equal(csvNumber(0.1), '0.1');
  assert.equal(csvNumber(1 / 3), String(1 / 3));
});

test('labels with commas, quotes and line breaks are quoted; formula-like labels are defused', () => {
  const labels = ['a,b', 'say "hi"', 'two\nlines', '=SUM(A1)', '+cmd', '@x', '-1', '-x'];
  const csv = matrixCsv(labels, ['v'], labels.map((_, i) => i));
  const rows = readCsv(csv);
  assert.deepEqual(
    rows.slice(1).map((r) => r[0]),
    ['a,b', 'say "hi"', 'two\nlines', "'=SUM(A1)", "'+cmd", "'@x", '-1', "'-x"],
  );
  assert.equal(csvField('plain'), 'plain');
});

test('non-finite numbers are written by name; shape mismatches throw', () => {
  assert.equal(csvNumber(Number.NaN), 'NaN');
  assert.equal(csvNumber(Infinity), 'Infinity');
  assert.equal(csvNumber(-Infinity), '-Infinity');
  assert.throws(() => matrixCsv(['a'], ['x', 'y'], [1]), /1×2 labels but 1 values/);
});

test('JSON: typed arrays become arrays, non-finite numbers strings', () => {
  const data = JSON.parse(exportJson({ values: Float32Array.from([0.5, 2]), bad: [NaN, Infinity], label: '小冰' }));
  assert.deepEqual(data, { values: [0.5, 2], bad: ['NaN', 'Infinity'], label: '小冰' });
});

test('file names keep letters (any script), digits, - _ . and nothing else', () => {
  assert.equal(safeFileName('dot-weights', 'csv'), 'dot-weights.csv');
  assert.equal(safeFileName('../../etc/passwd', 'png'), 'etc-passwd.png');
  assert.equal(safeFileName('注意力 权重', 'json'), '注意力-权重.json');
  assert.equal(safeFileName('<script>', 'csv'), 'script.csv');
  assert.equal(safeFileName('', 'csv'), 'attention-lab.csv');
  assert.ok(safeFileName('x'.repeat(500), 'csv').length <= 84);
});
