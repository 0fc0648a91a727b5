// When a canvas gets its first (costly) draw, shared by deferred-chart.ts (Chart.js) and
// deferred-draw.ts (plain canvas): in a task of its own soon after the canvas comes on or near the
// screen, and when the browser is idle otherwise, so every canvas is drawn without scrolling and
// several becoming visible together never make one long task.

/** how far off screen (in viewport heights) a canvas counts as near: drawn right away */
const NEAR_MARGIN = '100% 0px';
/** fallback for browsers without requestIdleCallback (Safari) */
const IDLE_FALLBACK_MS = 150;

// A canvas on screen draws in the next task, ahead of the page's other queued work where the browser
// can say so (scheduler.postTask, Chromium): a timeout's task waited behind loading tasks and a
// frame, 50-80 ms of the article's first heatmap here.
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking'; signal: AbortSignal }): Promise<void>;
}
const nextTask = (fn: () => void): (() => void) => {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    const abort = new AbortController();
    let ran = false;
    const run = (): void => {
      ran = true;
      fn();
    };
    // the promise rejects when the task is aborted (nothing to report) or when fn throws: that error
    // is thrown again, uncaught, as a timeout's would be
    scheduler.postTask(run, { priority: 'user-blocking', signal: abort.signal }).catch((err: unknown) => {
      if (!ran) return;
      setTimeout(() => {
        throw err;
      }, 0);
    });
    return () => {
      if (!ran) abort.abort();
    };
  }
  const id = setTimeout(fn, 0);
  return () => clearTimeout(id);
};

const whenIdle = (fn: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, IDLE_FALLBACK_MS);
  return () => clearTimeout(id);
};

// One first draw per frame: canvases that become ready together (the four heatmaps of §3.1–3.2,
// which one answer of the worker fills) would otherwise draw in back-to-back tasks of the
// user-blocking priority above, and the browser would show none of them until the last had drawn
// (about 20 ms of the article's first heatmap here). A second first draw before the next frame
// waits for that frame, then takes the next task.
let drewBeforeFrame = false;
/** null: draw now; otherwise `fn` runs in the task after the next frame, and this cancels it */
const afterFrameIfDrawn = (fn: () => void): (() => void) | null => {
  if (typeof requestAnimationFrame !== 'function') return null;
  if (drewBeforeFrame) {
    let cancelTask: (() => void) | null = null;
    const id = requestAnimationFrame(() => {
      cancelTask = nextTask(fn);
    });
    return () => {
      cancelAnimationFrame(id);
      cancelTask?.();
    };
  }
  drewBeforeFrame = true;
  requestAnimationFrame(() => {
    drewBeforeFrame = false;
  });
  return null;
};

/** A first draw that is waiting (scheduleFirstDraw). */
export interface FirstDraw {
  /** stops waiting: `draw` is not called */
  cancel(): void;
  /** the owner has something to draw now (a wait started with `ready: false`) */
  ready(): void;
}

/**
 * Calls `draw` once, at the first of the moments above. `ready: false` starts watching the canvas
 * before there is anything to draw (a heatmap waiting for the worker's answer): `draw` then waits
 * for ready() too, and a canvas already known to be on screen draws in the next task after it,
 * without waiting for the observer's next frame. `whenAway: false`: a canvas away from the screen
 * (or not shown at all) waits until it comes near, instead of drawing when the page is idle.
 */
export function scheduleFirstDraw(canvas: HTMLCanvasElement, draw: () => void, options: { ready?: boolean; whenAway?: boolean } = {}): FirstDraw {
  let isReady = options.ready ?? true;
  // what the first draw waits for, on the canvas, so that a test (or devtools) can say why a canvas
  // stays blank: data, observer, task, idle, near or frame; 'drawn' once this schedule drew it (a
  // canvas its owner drew early, e.g. for a PNG export, keeps the last wait)
  const waitingFor = (what: string): void => {
    canvas.dataset.firstDraw = what;
  };
  waitingFor(isReady ? 'observer' : 'data');
  const whenAway = options.whenAway ?? true;
  /** what the observer said last: on or near the screen, away from it, or nothing yet */
  let near: boolean | null = null;
  let cancelTimer: (() => void) | null = null;
  const stopTimer = (): void => {
    cancelTimer?.();
    cancelTimer = null;
  };
  const soon = (): void => {
    stopTimer();
    waitingFor('task');
    cancelTimer = nextTask(fire);
  };
  const waitIdle = (): void => {
    stopTimer();
    waitingFor('idle');
    cancelTimer = whenIdle(() => {
      cancelTimer = null;
      // not in the page yet: try again later (the observer reports it once it is on screen)
      if (canvas.isConnected) fire();
      else waitIdle();
    });
  };
  const decide = (): void => {
    if (!isReady || near === null) return;
    if (near) soon();
    else if (whenAway) waitIdle();
    else waitingFor('near');
  };
  const observer = new IntersectionObserver(
    (entries) => {
      near = entries[entries.length - 1].isIntersecting;
      decide();
    },
    { rootMargin: NEAR_MARGIN },
  );
  const cancel = (): void => {
    stopTimer();
    observer.disconnect();
  };
  function fire(): void {
    cancel();
    cancelTimer = afterFrameIfDrawn(fire);
    if (cancelTimer) return waitingFor('frame');
    waitingFor('drawn');
    draw();
  }
  observer.observe(canvas);
  return {
    cancel,
    ready: () => {
      if (isReady) return;
      isReady = true;
      waitingFor('observer');
      decide();
    },
  };
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
