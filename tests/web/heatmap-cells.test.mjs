// Linked views' mechanism (web/src/heatmap/heatmap-cells.ts): the cell under a pointer from the
// canvas's box on screen and the drawn grid (page scroll and the sideways scroller move the box;
// the sticky row labels cover the cells scrolled under them), the keyboard's moves, and one
// section's selection (hover over select, leave back to the selection, both ways between a heatmap
// and the selection; a repeated token is its own index, never looked up by its label).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { cellUnderPoint, cellAfterKey, sourceOfPointer, CellSelection, link } = await loadWeb('heatmap/heatmap-cells');

/** a 3 × 5 grid drawn 40 px from the canvas's left, 30 px from its top, cells 50 × 20 */
const layout = { rows: 3, cols: 5, left: 40, top: 30, colWidth: 50, rowHeight: 20, stickyX: 0, valueFont: 12, texts: [] };

test('the cell under a viewport point: from the canvas box on screen, wherever the page is scrolled', () => {
  const box = { left: 100, top: 500 };
  // the centre of every cell
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 5; c++) {
      assert.deepEqual(cellUnderPoint(layout, box, 100 + 40 + c * 50 + 25, 500 + 30 + r * 20 + 10), { row: r, col: c });
    }
  }
  // the last cell's far corner, and just past it
  assert.deepEqual(cellUnderPoint(layout, box, 100 + 40 + 250 - 0.5, 500 + 30 + 60 - 0.5), { row: 2, col: 4 });
  assert.equal(cellUnderPoint(layout, box, 100 + 40 + 250 + 1, 500 + 30 + 5), null);
  assert.equal(cellUnderPoint(layout, box, 100 + 40 + 5, 500 + 30 + 60 + 1), null);
  // over the row labels or the column labels: no cell
  assert.equal(cellUnderPoint(layout, box, 100 + 10, 500 + 40), null);
  assert.equal(cellUnderPoint(layout, box, 100 + 60, 500 + 10), null);
  // the page scrolled down by 400 px: the box moved up, the same screen point is another row
  assert.deepEqual(cellUnderPoint(layout, { left: 100, top: 100 }, 100 + 40 + 5, 100 + 30 + 45), { row: 2, col: 0 });
  assert.equal(cellUnderPoint(null, box, 0, 0), null, 'nothing drawn yet');
});

test('the sideways scroller: the canvas box moves left, the row labels stay over the cells scrolled under them', () => {
  // the box scrolled 120 px: the canvas starts 120 px left of the box (at 100), the labels are painted at x = 120
  const scrolled = { ...layout, stickyX: 120 };
  const box = { left: 100 - 120, top: 0 };
  // the screen point at the box's left edge + 10 px is under the sticky labels: no cell
  assert.equal(cellUnderPoint(scrolled, box, 100 + 10, 30 + 5), null);
  // right of the labels: canvas x = 120 + 45 = 165 → column 2 (40 + 2·50 = 140 … 190)
  assert.deepEqual(cellUnderPoint(scrolled, box, 100 + 45, 30 + 5), { row: 0, col: 2 });
  // the last column, scrolled into view
  assert.deepEqual(cellUnderPoint(scrolled, box, 100 + 40 + 250 - 120 - 5, 30 + 55), { row: 2, col: 4 });
});

test('pointer kinds: a finger is touch, a mouse or a pen is a pointer', () => {
  assert.equal(sourceOfPointer('touch'), 'touch');
  assert.equal(sourceOfPointer('mouse'), 'pointer');
  assert.equal(sourceOfPointer('pen'), 'pointer');
});

test('keyboard moves stay inside the matrix; other keys move nothing', () => {
  const at = { row: 1, col: 1 };
  assert.deepEqual(cellAfterKey('ArrowRight', at, 3, 5), { row: 1, col: 2 });
  assert.deepEqual(cellAfterKey('ArrowLeft', at, 3, 5), { row: 1, col: 0 });
  assert.deepEqual(cellAfterKey('ArrowUp', at, 3, 5), { row: 0, col: 1 });
  assert.deepEqual(cellAfterKey('ArrowDown', at, 3, 5), { row: 2, col: 1 });
  assert.deepEqual(cellAfterKey('End', at, 3, 5), { row: 1, col: 4 });
  assert.deepEqual(cellAfterKey('Home', at, 3, 5), { row: 1, col: 0 });
  assert.deepEqual(cellAfterKey('ArrowDown', { row: 2, col: 4 }, 3, 5), { row: 2, col: 4 }, 'clamped at the edge');
  assert.deepEqual(cellAfterKey('ArrowRight', { row: 9, col: 9 }, 3, 5), { row: 2, col: 4 }, 'a cell of an older, larger matrix is clamped');
  assert.equal(cellAfterKey('a', at, 3, 5), null);
  assert.equal(cellAfterKey('ArrowRight', at, 0, 0), null);
});

test('a selection: the hovered cell shows while hovered, then the selected one again; every view is told', () => {
  const sel = new CellSelection({ row: 0, col: 0 });
  const seen = [];
  sel.subscribe((cell, source) => seen.push([cell && `${cell.row},${cell.col}`, source]));
  sel.hover({ row: 2, col: 1 }, 'pointer');
  sel.hover(null, 'pointer');
  sel.select({ row: 1, col: 2 }, 'touch');
  sel.hover({ row: 0, col: 4 });
  sel.select(null, 'keyboard');
  assert.deepEqual(seen, [
    ['0,0', null],
    ['2,1', 'pointer'],
    ['0,0', 'pointer'],
    ['1,2', 'touch'],
    ['0,4', 'pointer'],
    [null, 'keyboard'],
  ]);
  assert.equal(sel.selected, null);
});

test('a listener that changes the selection ends the telling of the older cell', () => {
  const sel = new CellSelection();
  const last = [];
  sel.subscribe((cell) => {
    if (cell?.row === 1) sel.select({ row: 5, col: 5 }); // e.g. a view that snaps to another row
  });
  sel.subscribe((cell) => last.push(cell?.row ?? null));
  sel.select({ row: 1, col: 0 }, 'pointer');
  assert.deepEqual(last, [null, 5], 'the second view never saw the stale row 1');
});

/** A stand-in heatmap: records what it is asked to show, and emits cell events. */
function fakeMap() {
  const listeners = new Set();
  return {
    shown: [],
    onCell(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    showCell(cell) {
      this.shown.push(cell && `${cell.row},${cell.col}`);
    },
    emit(event) {
      for (const fn of listeners) fn({ value: 0, ...event });
    },
  };
}

test('link: heatmap events move the selection, the selection is drawn on every linked heatmap', () => {
  const sel = new CellSelection();
  const a = fakeMap();
  const b = fakeMap();
  const same = (c) => c;
  const stopA = link(sel, a, same, same);
  link(sel, b, same, same);
  // the second 我 of "我 爱 我": row 2, not the first row with the same label
  a.emit({ row: 2, col: 0, source: 'pointer', kind: 'hover' });
  assert.deepEqual(sel.current, { row: 2, col: 0, value: 0, source: 'pointer', kind: 'hover' });
  assert.equal(b.shown.at(-1), '2,0', 'the other map shows the hovered cell');
  a.emit({ row: 2, col: 0, source: 'pointer', kind: 'leave' });
  assert.equal(sel.current, null);
  b.emit({ row: 1, col: 2, source: 'touch', kind: 'select' });
  assert.equal(a.shown.at(-1), '1,2', 'a tap on one map selects the cell on the other');
  a.emit({ row: 0, col: 0, source: 'pointer', kind: 'leave' });
  assert.equal(sel.current.row, 1, 'the mouse leaving does not drop a tapped cell');
  b.emit({ row: 1, col: 2, source: 'keyboard', kind: 'leave' });
  assert.equal(sel.current, null, 'Escape drops the selection');
  stopA();
  b.emit({ row: 0, col: 1, source: 'keyboard', kind: 'select' });
  assert.equal(a.shown.at(-1), null, 'an unlinked map is no longer told');
});

test('link maps cells between views of different shapes (a head’s output ↔ the concatenation)', () => {
  const dh = 2;
  const sel = new CellSelection();
  const head2 = fakeMap();
  const concat = fakeMap();
  link(sel, head2, (c) => ({ head: 1, row: c.row, feature: c.col }), (s) => (s.head === 1 ? { row: s.row, col: s.feature } : null));
  link(sel, concat, (c) => ({ head: Math.floor(c.col / dh), row: c.row, feature: c.col % dh }), (s) => ({ row: s.row, col: s.head * dh + s.feature }));
  concat.emit({ row: 2, col: 3, source: 'touch', kind: 'select' });
  assert.deepEqual(sel.current, { head: 1, row: 2, feature: 1 });
  assert.equal(head2.shown.at(-1), '2,1');
  concat.emit({ row: 0, col: 0, source: 'keyboard', kind: 'select' });
  assert.equal(head2.shown.at(-1), null, 'a cell of another head is not drawn on this one');
});
