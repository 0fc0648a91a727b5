// A canvas keeps the colours it was painted with. When the colour scheme changes under a figure (the
// reader's system setting, as a phone's at dusk; a blog's theme switch; a widget's theme attribute),
// every live figure repaints with the tokens then in effect. One signal for all of them.

/** A figure painted on a canvas, which repaints with the colours now in effect when asked. */
export interface Restylable {
  restyle(): void;
}

// Held weakly: a figure dropped without destroy() is not kept alive by this list.
const figures = new Set<WeakRef<Restylable>>();
let watching = false;

/** Has `figure` repaint after every change of colour scheme. */
export function restyleOnSchemeChange(figure: Restylable): void {
  if (!watching && typeof matchMedia === 'function') {
    watching = true;
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', schemeChanged);
  }
  figures.add(new WeakRef(figure));
}

/** Tells every live figure that the scheme changed (the system setting's, or a widget's own). */
export function schemeChanged(): void {
  for (const ref of [...figures]) {
    const figure = ref.deref();
    if (figure) figure.restyle();
    else figures.delete(ref);
  }
}
