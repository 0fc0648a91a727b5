// What a reader does to a heatmap's canvas, turned into cell choices (heatmap.ts acts on them): the
// mouse hovers a cell (a finger's moves are scrolling, not pointing); a click or a tap selects the
// cell under it; Tab onto the canvas selects the keyboard's cell, the arrow keys (Home, End) move it,
// Escape drops it. The focus that a press gives the canvas is not the keyboard's: the click that
// follows says which cell it chose (else a tap would select the focused cell, wherever it landed).
import { cellAfterKey, cellUnderPoint, sourceOfPointer, type CellSource } from './heatmap-cells';
import type { HeatmapLayout } from './heatmap-paint';

export interface CellInputTarget {
  /** where the last draw put the cells, drawn now if need be (null: nothing drawn) */
  layout(): HeatmapLayout | null;
  /** the selected cell's index: where the keyboard moves from */
  selected(): number;
  hover(index: number | null, source: CellSource): void;
  select(index: number, source: CellSource): void;
  /** Escape: no cell selected */
  clear(): void;
  /** the canvas lost the focus */
  blurred(): void;
}

/** Listens to `canvas` for the reader's cell choices and tells `target`. */
export function listenForCells(canvas: HTMLCanvasElement, target: CellInputTarget): void {
  /** the pointer pressed on the canvas and has not clicked yet */
  let pressedBy: string | null = null;
  const cellAt = (e: MouseEvent): number | null => {
    const layout = target.layout();
    const cell = cellUnderPoint(layout, canvas.getBoundingClientRect(), e.clientX, e.clientY);
    return cell && layout ? cell.row * layout.cols + cell.col : null;
  };
  canvas.addEventListener('focus', () => {
    if (pressedBy === null) target.select(target.selected(), 'keyboard');
  });
  canvas.addEventListener('blur', () => {
    pressedBy = null;
    target.blurred();
  });
  canvas.addEventListener('keydown', (e) => {
    const layout = target.layout();
    if (!layout) return;
    if (e.key === 'Escape') return target.clear();
    const at = target.selected();
    const to = cellAfterKey(e.key, { row: Math.floor(at / layout.cols), col: at % layout.cols }, layout.rows, layout.cols);
    if (!to) return;
    e.preventDefault();
    target.select(to.row * layout.cols + to.col, 'keyboard');
  });
  canvas.addEventListener('pointermove', (e) => {
    if (e.pointerType !== 'touch') target.hover(cellAt(e), sourceOfPointer(e.pointerType));
  });
  canvas.addEventListener('pointerleave', (e) => target.hover(null, sourceOfPointer(e.pointerType)));
  canvas.addEventListener('pointerdown', (e) => (pressedBy = e.pointerType));
  canvas.addEventListener('click', (e) => {
    const type = pressedBy ?? ((e as PointerEvent).pointerType || 'mouse');
    pressedBy = null;
    const index = cellAt(e);
    if (index !== null) target.select(index, sourceOfPointer(type));
  });
}
