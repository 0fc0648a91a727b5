// An editable matrix: a table of number inputs with row labels (q1.. or k1..) and column labels
// (d1..). read() returns the values or throws a MatrixCellError naming the first bad cell (the
// section words the message in its language).
import { RovingFocus } from './sections/keyboard';

export interface MatrixEditorOptions {
  /** accessible name of the table, e.g. "Queries Q" */
  caption: string;
  /** row label prefix: "q" → q1, q2, … */
  rowPrefix: string;
  /** column label prefix: "d" → d1, d2, … */
  colPrefix: string;
  /** called on every edit */
  onInput: () => void;
  /** a row's box took the focus (linked views: that query or key) */
  onRowFocus?: (row: number) => void;
  /** the mouse went over a row (null: off the table) */
  onRowHover?: (row: number | null) => void;
}

/** Values beyond this would overflow float32 in QKᵀ; they are rejected with a message. */
export const MAX_ABS_VALUE = 1e6;

/** The first cell that is empty, not a number, or too large. */
export class MatrixCellError extends Error {
  constructor(
    readonly where: string,
    readonly problem: 'empty' | 'range',
  ) {
    super(`${where}: ${problem === 'empty' ? 'empty or not a number' : `keep values within ±${MAX_ABS_VALUE}`}`);
    this.name = 'MatrixCellError';
  }
}

export class MatrixEditor {
  readonly element: HTMLTableElement;
  readonly #options: MatrixEditorOptions;
  readonly #head: HTMLTableRowElement;
  readonly #body: HTMLTableSectionElement;
  #inputs: HTMLInputElement[] = [];
  /** one Tab stop for the whole matrix; the arrow keys move from cell to cell, as in a spreadsheet */
  readonly #focus: RovingFocus;
  #rows = 0;
  #cols = 0;

  constructor(host: HTMLElement, options: MatrixEditorOptions) {
    this.#options = options;
    const table = document.createElement('table');
    table.className = 'matrix-editor';
    const caption = table.createCaption();
    caption.textContent = options.caption;
    this.#head = table.createTHead().insertRow();
    this.#body = table.createTBody();
    this.element = table;
    table.addEventListener('input', (event) => {
      const t = event.target;
      if (t instanceof HTMLInputElement) t.removeAttribute('aria-invalid');
      options.onInput();
    });
    this.#focus = new RovingFocus(this.#body, () => Array.from(this.#body.rows, (tr) => Array.from(tr.querySelectorAll('input'))));
    const rowOf = (target: EventTarget | null) => {
      const tr = target instanceof Element ? target.closest('tr') : null;
      return tr && tr.parentElement === this.#body ? tr.sectionRowIndex : null;
    };
    table.addEventListener('focusin', (event) => {
      const row = rowOf(event.target);
      if (row !== null) options.onRowFocus?.(row);
    });
    table.addEventListener('pointerover', (event) => {
      if (event.pointerType === 'mouse') options.onRowHover?.(rowOf(event.target));
    });
    table.addEventListener('pointerleave', (event) => {
      if (event.pointerType === 'mouse') options.onRowHover?.(null);
    });
    host.append(table);
  }

  get rows(): number {
    return this.#rows;
  }

  get cols(): number {
    return this.#cols;
  }

  /** Rebuilds the grid for a new shape and fills it (values row-major, length rows·cols). */
  setValues(rows: number, cols: number, values: ArrayLike<number>): void {
    if (values.length !== rows * cols) throw new Error(`expected ${rows * cols} values, got ${values.length}`);
    const { rowPrefix, colPrefix, caption } = this.#options;
    if (rows !== this.#rows || cols !== this.#cols) {
      this.#head.replaceChildren(document.createElement('td'));
      for (let c = 0; c < cols; c++) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = `${colPrefix}${c + 1}`;
        this.#head.append(th);
      }
      this.#body.replaceChildren();
      this.#inputs = [];
      for (let r = 0; r < rows; r++) {
        const tr = this.#body.insertRow();
        const th = document.createElement('th');
        th.scope = 'row';
        th.textContent = `${rowPrefix}${r + 1}`;
        tr.append(th);
        for (let c = 0; c < cols; c++) {
          const input = document.createElement('input');
          input.type = 'number';
          input.step = '0.1';
          input.inputMode = 'decimal';
          input.className = 'lab-input';
          input.dataset.row = String(r);
          input.dataset.col = String(c);
          input.setAttribute('aria-label', `${caption}, ${rowPrefix}${r + 1}, ${colPrefix}${c + 1}`);
          tr.insertCell().append(input);
          this.#inputs.push(input);
        }
      }
      this.#rows = rows;
      this.#cols = cols;
      this.#focus.update();
    }
    this.#inputs.forEach((input, i) => {
      // 7 significant digits: a float32 such as 1.3999999762 shows as 1.4
      const text = String(Number(values[i].toPrecision(7)));
      // A box that already holds this number keeps its text, so typing "0." is not rewritten to "0".
      if (input.value.trim() !== '' && input.valueAsNumber === Number(text)) return;
      input.value = text;
      input.removeAttribute('aria-invalid');
    });
  }

  /** Marks one row (linked views: the query or key behind a hovered cell); null clears it. */
  highlightRow(row: number | null): void {
    [...this.#body.rows].forEach((tr, r) => tr.classList.toggle('matrix-row-linked', r === row));
  }

  /** The current values, row-major (as typed: no float32 rounding, so they round-trip through a URL). */
  read(): number[] {
    const out: number[] = new Array<number>(this.#inputs.length);
    let firstBad: MatrixCellError | null = null;
    for (let i = 0; i < this.#inputs.length; i++) {
      const input = this.#inputs[i];
      // An empty box or text the browser cannot parse both read as NaN here.
      const v = input.value.trim() === '' ? Number.NaN : input.valueAsNumber;
      if (Number.isFinite(v) && Math.abs(v) <= MAX_ABS_VALUE) {
        input.removeAttribute('aria-invalid');
        out[i] = v;
        continue;
      }
      input.setAttribute('aria-invalid', 'true');
      if (firstBad === null) {
        const { caption, rowPrefix, colPrefix } = this.#options;
        const where = `${caption} ${rowPrefix}${Math.floor(i / this.#cols) + 1}, ${colPrefix}${(i % this.#cols) + 1}`;
        firstBad = new MatrixCellError(where, Number.isNaN(v) ? 'empty' : 'range');
      }
    }
    if (firstBad !== null) throw firstBad;
    return out;
  }
}
