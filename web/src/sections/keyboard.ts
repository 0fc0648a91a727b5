// Keyboard helpers shared by the sections: a button that disables itself hands the focus on (a
// disabled button drops it to the page, and a keyboard user would start again from the top), and
// roving focus (one Tab stop for a grid or list of buttons, the arrow keys inside it: a grid of 60
// cells is not 60 presses of Tab).

/**
 * Sets `button.disabled`; when that takes the focus from it, `next` gets it (Train → Pause, the
 * reader's next likely press). Without focus nothing moves.
 */
export function setDisabled(button: HTMLButtonElement, disabled: boolean, next: HTMLElement | null): void {
  if (button.disabled === disabled) return;
  const root = button.getRootNode() as Document | ShadowRoot;
  const hadFocus = root.activeElement === button;
  button.disabled = disabled;
  if (disabled && hadFocus && next && !(next instanceof HTMLButtonElement && next.disabled)) next.focus({ preventScroll: true });
}

/**
 * A run's Start and Pause: while it runs Start is disabled, else Pause; the focus on the one that
 * disables itself goes to the other.
 */
export function setRunning(running: boolean, start: HTMLButtonElement, pause: HTMLButtonElement): void {
  const [on, off] = running ? [pause, start] : [start, pause];
  setDisabled(on, false, null);
  setDisabled(off, true, on);
}

/**
 * One Tab stop over rows of items (a grid, or a list as one row): the current item has
 * tabindex=0, the others -1; arrow keys move (up and down keep the column, clamped to a shorter
 * row), Home and End go to the row's ends, Ctrl+Home and Ctrl+End to the grid's. The current item
 * is remembered across redraws by its position: call `update` around every change of the items.
 */
export class RovingFocus {
  readonly #container: HTMLElement;
  readonly #rows: () => HTMLElement[][];
  #row = 0;
  #col = 0;

  /** `rows`: the items now, row by row (disabled ones are skipped: they cannot take focus) */
  constructor(container: HTMLElement, rows: () => HTMLElement[][]) {
    this.#container = container;
    this.#rows = rows;
    container.addEventListener('keydown', (e) => this.#onKey(e));
    container.addEventListener('focusin', (e) => {
      const at = this.#find(e.target);
      if (at) [this.#row, this.#col] = at;
      this.#mark();
    });
  }

  /** Runs `change` (which redraws the items); the focus stays on the same position if it was inside. */
  update(change: () => void = () => {}): void {
    const root = this.#container.getRootNode() as Document | ShadowRoot;
    const hadFocus = root.activeElement instanceof Node && this.#container.contains(root.activeElement);
    change();
    const item = this.#mark();
    if (hadFocus) item?.focus({ preventScroll: true });
  }

  #items(): HTMLElement[][] {
    return this.#rows()
      .map((row) => row.filter((b) => !(b instanceof HTMLButtonElement && b.disabled)))
      .filter((row) => row.length > 0);
  }

  /** Clamps the position to the items there are and gives the current one the Tab stop. */
  #mark(): HTMLElement | null {
    const rows = this.#items();
    if (rows.length === 0) return null;
    this.#row = Math.min(Math.max(this.#row, 0), rows.length - 1);
    this.#col = Math.min(Math.max(this.#col, 0), rows[this.#row].length - 1);
    let current: HTMLElement | null = null;
    rows.forEach((row, r) =>
      row.forEach((item, c) => {
        const here = r === this.#row && c === this.#col;
        item.tabIndex = here ? 0 : -1;
        if (here) current = item;
      }),
    );
    return current;
  }

  #find(target: EventTarget | null): [number, number] | null {
    const rows = this.#items();
    for (let r = 0; r < rows.length; r++) {
      const c = rows[r].indexOf(target as HTMLElement);
      if (c >= 0) return [r, c];
    }
    return null;
  }

  #onKey(e: KeyboardEvent): void {
    const at = this.#find(e.target);
    if (!at) return;
    const rows = this.#items();
    let [r, c] = at;
    const last = rows.length - 1;
    switch (e.key) {
      case 'ArrowRight':
        if (c < rows[r].length - 1) c++;
        else if (r < last) [r, c] = [r + 1, 0];
        break;
      case 'ArrowLeft':
        if (c > 0) c--;
        else if (r > 0) [r, c] = [r - 1, rows[r - 1].length - 1];
        break;
      case 'ArrowDown':
        r = Math.min(r + 1, last);
        break;
      case 'ArrowUp':
        r = Math.max(r - 1, 0);
        break;
      case 'Home':
        [r, c] = e.ctrlKey ? [0, 0] : [r, 0];
        break;
      case 'End':
        r = e.ctrlKey ? last : r;
        c = rows[r].length - 1;
        break;
      default:
        return;
    }
    e.preventDefault();
    this.#row = r;
    this.#col = Math.min(c, rows[r].length - 1);
    this.#mark()?.focus();
  }
}
