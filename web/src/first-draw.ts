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
