// The heatmap's cell events and the geometry behind them. A heatmap tells its listeners which cell
// the reader points at, taps or walks to with the keyboard, as numbers (row and column indices, the
// value): a view linked to it never reads the figure's text, so a repeated token stays its own cell.
// The cell under a pointer is found from the event's viewport point and the canvas's box on screen
// (getBoundingClientRect moves with the page's and the sideways scroller's scrolling), then the grid
// of the last draw (heatmap-paint.ts's cellAt: nothing under the sticky row labels).
import { cellAt, type HeatmapLayout } from './heatmap-paint';

/** what the reader used: a mouse or pen, a finger, or the keyboard */
export type CellSource = 'pointer' | 'keyboard' | 'touch';
/** hover: the mouse is over the cell; select: a click, tap or keyboard move chose it; leave: no cell any more */
export type CellKind = 'hover' | 'select' | 'leave';

export interface CellRef {
  row: number;
  col: number;
}

export interface CellEvent extends CellRef {
  value: number;
  source: CellSource;
  kind: CellKind;
}

export type CellListener = (event: CellEvent) => void;

/** The cell under viewport point (clientX, clientY) of a canvas whose box on screen is `canvasBox`. */
export function cellUnderPoint(layout: HeatmapLayout | null, canvasBox: { left: number; top: number }, clientX: number, clientY: number): CellRef | null {
  if (!layout) return null;
  const index = cellAt(layout, clientX - canvasBox.left, clientY - canvasBox.top);
  return index === null ? null : { row: Math.floor(index / layout.cols), col: index % layout.cols };
}

/** A finger is 'touch'; a mouse, a pen or anything else that points is 'pointer'. */
export function sourceOfPointer(pointerType: string): CellSource {
  return pointerType === 'touch' ? 'touch' : 'pointer';
}

/** Where each key moves the keyboard's cell from (r, c) of a rows × cols matrix, clamped to it. */
const KEY_MOVES = new Map<string, (r: number, c: number, rows: number, cols: number) => CellRef>([
  ['ArrowLeft', (r, c) => ({ row: r, col: c - 1 })],
  ['ArrowRight', (r, c) => ({ row: r, col: c + 1 })],
  ['ArrowUp', (r, c) => ({ row: r - 1, col: c })],
  ['ArrowDown', (r, c) => ({ row: r + 1, col: c })],
  ['Home', (r) => ({ row: r, col: 0 })],
  ['End', (r, _c, _rows, cols) => ({ row: r, col: cols - 1 })],
]);

/** The cell `key` moves to from `from` in a rows × cols matrix (clamped), or null for another key. */
export function cellAfterKey(key: string, from: CellRef, rows: number, cols: number): CellRef | null {
  const move = KEY_MOVES.get(key);
  if (!move || rows === 0 || cols === 0) return null;
  const to = move(from.row, from.col, rows, cols);
  return { row: Math.max(0, Math.min(to.row, rows - 1)), col: Math.max(0, Math.min(to.col, cols - 1)) };
}

/**
 * One section's selected cell, read by every view of the section: the cell the mouse is over (while
 * it is) or else the one last clicked, tapped or walked to. Views subscribe and draw it; heatmaps
 * feed it with their cell events (link), other views call hover/select themselves.
 */
export class CellSelection<C extends object = CellRef> {
  #hovered: C | null = null;
  #selected: C | null;
  #source: CellSource | null = null;
  /** counts changes, so that a change made by a listener ends the telling of the one before */
  #version = 0;
  readonly #listeners = new Set<(cell: C | null, source: CellSource | null) => void>();

  constructor(initial: C | null = null) {
    this.#selected = initial;
  }

  /** the cell every view shows: the hovered one, else the selected one */
  get current(): C | null {
    return this.#hovered ?? this.#selected;
  }

  /** the selected cell, whatever the mouse is over */
  get selected(): C | null {
    return this.#selected;
  }

  hover(cell: C | null, source: CellSource = 'pointer'): void {
    this.#hovered = cell;
    if (cell) this.#source = source;
    this.#emit();
  }

  select(cell: C | null, source: CellSource | null = null): void {
    this.#hovered = null;
    this.#selected = cell;
    this.#source = source;
    this.#emit();
  }

  /** Calls `fn` now and at every change; returns a function that stops it. */
  subscribe(fn: (cell: C | null, source: CellSource | null) => void): () => void {
    this.#listeners.add(fn);
    fn(this.current, this.#source);
    return () => this.#listeners.delete(fn);
  }

  #emit(): void {
    const cell = this.current;
    const version = ++this.#version;
    for (const fn of [...this.#listeners]) {
      // a listener that changed the selection has told everyone the newer cell: this one is stale
      if (this.#version !== version) return;
      fn(cell, this.#source);
    }
  }
}

/** What a heatmap offers a selection: its cell events and a way to show a cell chosen elsewhere. */
export interface CellEmitter {
  onCell(listener: CellListener): () => void;
  showCell(cell: CellRef | null): void;
}

/**
 * Ties a heatmap to a section's selection both ways: its hover, select and leave events move the
 * selection (through `toCell`, which maps the heatmap's row and column to the section's cell; null:
 * this cell means nothing to the section), and the selection's cell is drawn on the heatmap (through
 * `fromCell`). Returns a function that unties them.
 */
export function link<C extends object>(
  selection: CellSelection<C>,
  map: CellEmitter,
  toCell: (cell: CellRef) => C | null,
  fromCell: (cell: C) => CellRef | null,
): () => void {
  const stopEvents = map.onCell((e) => {
    if (e.kind === 'hover') selection.hover(toCell(e), e.source);
    else if (e.kind === 'select') selection.select(toCell(e), e.source);
    else if (e.source === 'keyboard') selection.select(null, e.source);
    else selection.hover(null, e.source);
  });
  const stopShowing = selection.subscribe((cell) => map.showCell(cell ? fromCell(cell) : null));
  return () => {
    stopEvents();
    stopShowing();
  };
}
