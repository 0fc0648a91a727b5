// Linked views from outside the heatmap component: which cell of a Heatmap the reader is hovering
// or has focused with the keyboard, read from the figure's public DOM (its tooltip while hovered,
// its focus line while focused: both show "row label · column label"), and "activate" (a click, or
// Enter on the focused canvas) on a cell. Labels are mapped back to indices by the caller's label
// lists; a repeated label resolves to its first occurrence.
import type { Heatmap } from '../heatmap/heatmap';

export interface CellRef {
  row: number;
  col: number;
}

/** The separator the heatmap puts between the row and the column label. */
const SEPARATOR = ' · ';

export function parseCell(text: string | null | undefined, rows: readonly string[], cols: readonly string[]): CellRef | null {
  if (!text) return null;
  const head = text.split(': ')[0]; // the focus line appends ": value"
  for (let r = 0; r < rows.length; r++) {
    const prefix = `${rows[r]}${SEPARATOR}`;
    if (!head.startsWith(prefix)) continue;
    const col = cols.indexOf(head.slice(prefix.length));
    if (col >= 0) return { row: r, col };
  }
  return null;
}

/**
 * Calls `onCell` with the hovered or focused cell (null when none) whenever it changes, and
 * `onActivate` on a click or Enter over a cell. Returns a function that stops watching.
 */
export function watchHeatmapCells(
  map: Heatmap,
  labels: () => { rows: readonly string[]; cols: readonly string[] },
  onCell: (cell: CellRef | null) => void,
  onActivate?: (cell: CellRef) => void,
): () => void {
  const fig = map.element;
  const tooltip = fig.querySelector<HTMLElement>('.heatmap-tooltip');
  const focusLine = fig.querySelector<HTMLElement>('.focus-text');
  const canvas = fig.querySelector<HTMLCanvasElement>('canvas');
  let last: CellRef | null = null;
  /** `keyboard`: the focus line first (it is set at once; the tooltip follows a frame later) */
  const read = (keyboard = false) => {
    const { rows, cols } = labels();
    const hovered = () => (tooltip && !tooltip.hidden ? parseCell(tooltip.querySelector('strong')?.textContent, rows, cols) : null);
    const focused = () => parseCell(focusLine?.textContent, rows, cols);
    const cell = keyboard ? (focused() ?? hovered()) : (hovered() ?? focused());
    if (cell?.row === last?.row && cell?.col === last?.col) return;
    last = cell;
    onCell(cell);
  };
  const observer = new MutationObserver(() => read());
  for (const node of [tooltip, focusLine]) {
    if (node) observer.observe(node, { attributes: true, childList: true, subtree: true, characterData: true });
  }
  const activate = (keyboard: boolean) => {
    read(keyboard);
    if (last && onActivate) onActivate(last);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate(true);
    }
  };
  // the heatmap updates its tooltip on pointerdown; read it once that has happened
  const onClick = () => queueMicrotask(() => activate(false));
  if (onActivate && canvas) {
    canvas.addEventListener('click', onClick);
    canvas.addEventListener('keydown', onKey);
  }
  return () => {
    observer.disconnect();
    canvas?.removeEventListener('click', onClick);
    canvas?.removeEventListener('keydown', onKey);
  };
}
