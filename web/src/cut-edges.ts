// A box that scrolls sideways shows that it does: data-cut names its edges that have content
// beyond them ('left', 'right', both or none), which its CSS fades (a table on a phone whose last
// columns are out of view otherwise looks complete). Each box's CSS fades its own way: a table
// fades both edges (a mask), a heatmap only its right one (its row labels are at the left). The
// heatmap marks its edges by whole columns (heatmap-scroller.ts), §3.3's table as it scrolls
// (translate-compare.ts).

/** Writes which edges of `box` have content beyond them into its data-cut. */
export function markCutEdges(box: HTMLElement, left: boolean, right: boolean): void {
  const cut = `${left ? 'left ' : ''}${right ? 'right' : ''}`.trim();
  if (box.dataset.cut !== cut) box.dataset.cut = cut;
}
