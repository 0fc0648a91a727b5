// A box that scrolls sideways shows that it does: data-cut names its edges that have content
// beyond them ('left', 'right', both or none), which its CSS fades (a table on a phone whose last
// columns are out of view otherwise looks complete). The heatmap keeps its own, by whole columns
// (heatmap-scroller.ts).

/** Keeps `box.dataset.cut` up to date as it scrolls, resizes or its content changes. */
export function watchCutEdges(box: HTMLElement): void {
  const update = (): void => {
    const left = box.scrollLeft > 1;
    const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    const cut = `${left ? 'left ' : ''}${right ? 'right' : ''}`.trim();
    if (box.dataset.cut !== cut) box.dataset.cut = cut;
  };
  box.addEventListener('scroll', update, { passive: true });
  const resized = new ResizeObserver(update);
  resized.observe(box);
  // a rebuilt table changes the scroll width, not the box's size
  new MutationObserver(() => {
    for (const child of box.children) resized.observe(child);
    update();
  }).observe(box, { childList: true });
  for (const child of box.children) resized.observe(child);
}
