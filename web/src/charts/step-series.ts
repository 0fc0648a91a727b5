// A value per training step, as the training curves draw it, at a cost per frame that does not grow
// with the run. A run at thousands of steps a second would otherwise hand Chart.js every step at
// every frame (tens of thousands of points, then hundreds of thousands), and each redraw would
// map, scan and decimate all of them: frames of 50 ms and more on the main thread.
//
// StepThinning keeps at most MAX_BUCKETS buckets of `size` consecutive steps and draws each as its
// lowest and its highest point, in step order: what a column of pixels can show of the steps it
// covers, spikes included (a mean would hide them). When the buckets run out, neighbours merge and
// `size` doubles. RunningAverage is the accuracy's trailing mean, extended rather than recomputed.
// Both read only the values added since their last call; the exports still take every step from
// the trainer's history.
import type { LinePoint } from './line-chart';

/** buckets kept: up to two points each, a few times the plot's width in pixels */
export const MAX_BUCKETS = 1024;

interface Bucket {
  /** the lowest and the highest value's step (x) and value; NaN values are left out */
  loX: number;
  loY: number;
  hiX: number;
  hiY: number;
  /** the bucket's first step, its x when every value in it is NaN */
  firstX: number;
}

const emptyBucket = (x: number): Bucket => ({ loX: x, loY: Infinity, hiX: x, hiY: -Infinity, firstX: x });

function add(b: Bucket, x: number, y: number): void {
  if (!Number.isFinite(y)) return;
  if (y < b.loY) {
    b.loX = x;
    b.loY = y;
  }
  if (y > b.hiY) {
    b.hiX = x;
    b.hiY = y;
  }
}

function merge(a: Bucket, b: Bucket): Bucket {
  const m = { ...a };
  if (b.loY < m.loY) {
    m.loX = b.loX;
    m.loY = b.loY;
  }
  if (b.hiY > m.hiY) {
    m.hiX = b.hiX;
    m.hiY = b.hiY;
  }
  return m;
}

/** The points of `values` (x = index + 1) to draw: every step while few, thinned once many. */
export class StepThinning {
  readonly #maxBuckets: number;
  #source: readonly number[] | null = null;
  #read = 0;
  #size = 1;
  #full: Bucket[] = [];
  #open: Bucket | null = null;
  #openCount = 0;

  constructor(maxBuckets = MAX_BUCKETS) {
    this.#maxBuckets = maxBuckets;
  }

  /** steps per bucket (1 until the run outgrows the buckets) */
  get bucketSize(): number {
    return this.#size;
  }

  /**
   * The points for `values`, an array that only grows (a trainer's history). Another array, or a
   * shorter one, starts over.
   */
  points(values: readonly number[]): LinePoint[] {
    if (values !== this.#source || values.length < this.#read) this.#reset(values);
    for (; this.#read < values.length; this.#read++) {
      const x = this.#read + 1;
      this.#open ??= emptyBucket(x);
      add(this.#open, x, values[this.#read]);
      if (++this.#openCount === this.#size) this.#close();
    }
    const out: LinePoint[] = [];
    for (const b of this.#full) pushBucket(out, b);
    if (this.#open) pushBucket(out, this.#open);
    return out;
  }

  #close(): void {
    this.#full.push(this.#open!);
    this.#open = null;
    this.#openCount = 0;
    if (this.#full.length < this.#maxBuckets) return;
    const merged: Bucket[] = [];
    for (let i = 0; i < this.#full.length; i += 2) {
      merged.push(i + 1 < this.#full.length ? merge(this.#full[i], this.#full[i + 1]) : this.#full[i]);
    }
    this.#full = merged;
    this.#size *= 2;
  }

  #reset(values: readonly number[]): void {
    this.#source = values;
    this.#read = 0;
    this.#size = 1;
    this.#full = [];
    this.#open = null;
    this.#openCount = 0;
  }
}

function pushBucket(out: LinePoint[], b: Bucket): void {
  if (b.loY === Infinity) out.push({ x: b.firstX, y: null }); // only NaN here: a gap
  else if (b.loX === b.hiX) out.push({ x: b.loX, y: b.loY });
  else if (b.loX < b.hiX) out.push({ x: b.loX, y: b.loY }, { x: b.hiX, y: b.hiY });
  else out.push({ x: b.hiX, y: b.hiY }, { x: b.loX, y: b.loY });
}

/** The trailing mean over `window` values of a growing array, extended by the new values only. */
export class RunningAverage {
  #source: readonly number[] | null = null;
  #window = 0;
  #sum = 0;
  #out: number[] = [];

  /**
   * The averages of `values` (same length), in an array that grows as `values` does; a new array, a
   * shorter one or another window starts over in a new array (so StepThinning starts over too).
   */
  of(values: readonly number[], window: number): readonly number[] {
    if (values !== this.#source || window !== this.#window || values.length < this.#out.length) {
      this.#source = values;
      this.#window = window;
      this.#sum = 0;
      this.#out = [];
    }
    for (let i = this.#out.length; i < values.length; i++) {
      this.#sum += values[i];
      if (i >= window) this.#sum -= values[i - window];
      this.#out.push(this.#sum / Math.min(i + 1, window));
    }
    return this.#out;
  }
}
