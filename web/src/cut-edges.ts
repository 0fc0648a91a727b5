// A box that scrolls sideways shows that it does: data-cut names its edges that have content
// beyond them ('left', 'right', both or none), which its CSS fades (a table on a phone whose last
// columns are out of view otherwise looks complete). Each box's CSS fades its own way: a table
// fades both edges (a mask), a heatmap only its right one (its row labels are at the left).

/** Writes which edges of `box` have content beyond them into its data-cut. */
export function markCutEdges(box: HTMLElement, left: boolean, right: boolean): void {
  const cut = `${left ? 'left ' : ''}${right ? 'right' : ''}`.trim();
  if (box.dataset.cut !== cut) box.dataset.cut = cut;
}

/**
 * Keeps `box`'s data-cut up to date as it scrolls, resizes or its content changes (a heatmap marks
 * its own, by whole columns: heatmap-scroller.ts). Returns what stops watching.
 */
export function watchCutEdges(box: HTMLElement): () => void {
  const update = (): void => markCutEdges(box, box.scrollLeft > 1, box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  box.addEventListener('scroll', update, { passive: true });
  const resized = new ResizeObserver(update);
  resized.observe(box);
  // a rebuilt table changes the scroll width, not the box's size
  const rebuilt = new MutationObserver(() => {
    for (const child of box.children) resized.observe(child);
    update();
  });
  rebuilt.observe(box, { childList: true });
  for (const child of box.children) resized.observe(child);
  return () => {
    box.removeEventListener('scroll', update);
    resized.disconnect();
    rebuilt.disconnect();
  };
}
