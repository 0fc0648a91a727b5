// When a canvas gets its first (costly) draw, shared by deferred-chart.ts (Chart.js) and
// deferred-draw.ts (plain canvas): in a task of its own soon after the canvas comes on or near the
// screen, and when the browser is idle otherwise, so every canvas is drawn without scrolling and
// several becoming visible together never make one long task.

/** how far off screen (in viewport heights) a canvas counts as near: drawn right away */
const NEAR_MARGIN = '100% 0px';
/** fallback for browsers without requestIdleCallback (Safari) */
const IDLE_FALLBACK_MS = 150;

const whenIdle = (fn: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, IDLE_FALLBACK_MS);
  return () => clearTimeout(id);
};

/** Calls `draw` once, at the first of the moments above; returns a function that cancels the wait. */
export function scheduleFirstDraw(canvas: HTMLCanvasElement, draw: () => void): () => void {
  let cancelTimer: (() => void) | null = null;
  const waitIdle = (): void => {
    cancelTimer = whenIdle(() => {
      cancelTimer = null;
      // not in the page yet: try again later (the observer reports it once it is on screen)
      if (canvas.isConnected) fire();
      else waitIdle();
    });
  };
  const observer = new IntersectionObserver(
    (entries) => {
      cancelTimer?.();
      if (entries.some((e) => e.isIntersecting)) {
        const id = setTimeout(fire, 0);
        cancelTimer = () => clearTimeout(id);
      } else {
        waitIdle();
      }
    },
    { rootMargin: NEAR_MARGIN },
  );
  const cancel = (): void => {
    cancelTimer?.();
    cancelTimer = null;
    observer.disconnect();
  };
  function fire(): void {
    cancel();
    draw();
  }
  observer.observe(canvas);
  return cancel;
}

// The heatmaps come first: Chart.js (a larger download than everything a heatmap needs) is fetched
// only after the first heatmap of the page has drawn, at once on a page without heatmaps, and after
// at most HEATMAP_WAIT_MS when the page's heatmaps wait for something (e.g. §3.3's, for a decode).
let heatmapsWaiting = 0;
let heatmapDrawn = false;
const afterHeatmap: (() => void)[] = [];
/** heatmaps that have not drawn yet delay the charts' library at most this long */
const HEATMAP_WAIT_MS = 2000;

/** A heatmap exists and will draw: call the returned function once it has (or is destroyed undrawn). */
export function heatmapWaiting(): (drawn?: boolean) => void {
  heatmapsWaiting++;
  let done = false;
  return (drawn = true) => {
    if (done) return;
    done = true;
    heatmapsWaiting--;
    if (drawn) heatmapDrawn = true;
    if (heatmapDrawn || heatmapsWaiting === 0) for (const fn of afterHeatmap.splice(0)) fn();
  };
}

/** Resolves once the page's first heatmap has drawn (at once if there is none; at most 2 s). */
export function afterFirstHeatmap(): Promise<void> {
  if (heatmapDrawn || heatmapsWaiting === 0) return Promise.resolve();
  return new Promise((resolve) => {
    afterHeatmap.push(resolve);
    setTimeout(resolve, HEATMAP_WAIT_MS);
  });
}
