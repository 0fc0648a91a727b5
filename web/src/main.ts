// AttentionLab, first page: the note's §3.1 (dot-product) and §3.2 (scaled dot-product) attention,
// live. Queries Q (N×D) and keys K (M×D, also the values, like x2 in the note) are editable; the
// wasm core computes scores → scaled scores → softmax weights → output on every edit.
import './style.css';
import { Heatmap } from './heatmap';
import { loadAttentionLab, type AttentionLab, type AttentionResult } from './lab';
import { MatrixEditor } from './matrix-editor';
import { freshSeed, NormalSampler } from './random';
import {
  MAX_SIZE,
  MIN_SIZE,
  parseHash,
  parseScore,
  parseSeed,
  parseSize,
  toHash,
  type Settings,
} from './settings';

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`page is missing #${id}`);
  return el;
}

const labels = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);

class AttentionPage {
  readonly #lab: AttentionLab;
  #settings: Settings;
  readonly #seed = byId('seed', HTMLInputElement);
  readonly #score = byId('score', HTMLSelectElement);
  readonly #sizes = {
    n: byId('size-n', HTMLSelectElement),
    m: byId('size-m', HTMLSelectElement),
    d: byId('size-d', HTMLSelectElement),
  };
  readonly #status = byId('status', HTMLElement);
  readonly #formula = byId('formula', HTMLElement);
  readonly #query: MatrixEditor;
  readonly #key: MatrixEditor;
  readonly #maps: { scores: Heatmap; scaled: Heatmap; weights: Heatmap; output: Heatmap };
  #computeCount = 0;

  constructor(lab: AttentionLab, settings: Settings) {
    this.#lab = lab;
    this.#settings = settings;
    const recompute = () => this.compute();
    this.#query = new MatrixEditor(byId('query-editor', HTMLElement), {
      caption: 'Queries Q',
      rowPrefix: 'q',
      colPrefix: 'd',
      onInput: recompute,
    });
    this.#key = new MatrixEditor(byId('key-editor', HTMLElement), {
      caption: 'Keys K (= values V)',
      rowPrefix: 'k',
      colPrefix: 'd',
      onInput: recompute,
    });
    const maps = byId('heatmaps', HTMLElement);
    this.#maps = {
      scores: new Heatmap(maps, { id: 'scores', title: 'Raw scores QKᵀ' }),
      scaled: new Heatmap(maps, { id: 'scaled', title: 'Scaled scores QKᵀ/√d' }),
      weights: new Heatmap(maps, { id: 'weights', title: 'Softmax weights', fixedRange: [0, 1] }),
      output: new Heatmap(maps, { id: 'output', title: 'Output = weights · V' }),
    };

    for (const select of Object.values(this.#sizes)) {
      for (let v = MIN_SIZE; v <= MAX_SIZE; v++) select.add(new Option(String(v), String(v)));
    }
    this.#seed.addEventListener('change', () => this.#onSeed());
    byId('randomise', HTMLButtonElement).addEventListener('click', () => {
      this.#apply({ ...this.#settings, seed: freshSeed() });
    });
    this.#score.addEventListener('change', () => {
      const score = parseScore(this.#score.value);
      if (score) this.#apply({ ...this.#settings, score }, { keepValues: true });
    });
    for (const key of ['n', 'm', 'd'] as const) {
      this.#sizes[key].addEventListener('change', () => {
        const v = parseSize(this.#sizes[key].value);
        if (v !== null) this.#apply({ ...this.#settings, [key]: v });
      });
    }
    window.addEventListener('hashchange', () => {
      const { settings, rejected } = parseHash(location.hash, this.#settings);
      this.#apply(settings);
      this.#noteRejected(rejected);
    });
  }

  /** Applies settings: syncs the controls and the URL, refills Q and K from the seed, recomputes. */
  #apply(next: Settings, { keepValues = false } = {}): void {
    this.#settings = next;
    this.#seed.value = String(next.seed);
    this.#score.value = next.score;
    this.#sizes.n.value = String(next.n);
    this.#sizes.m.value = String(next.m);
    this.#sizes.d.value = String(next.d);
    const hash = toHash(next);
    if (location.hash !== hash) history.replaceState(null, '', hash);
    if (!keepValues || this.#query.rows === 0) {
      const normal = new NormalSampler(next.seed);
      this.#query.setValues(next.n, next.d, normal.take(next.n * next.d));
      this.#key.setValues(next.m, next.d, normal.take(next.m * next.d));
    }
    this.#formula.textContent =
      next.score === 'scaled'
        ? `output = softmax(QKᵀ/√d) V, with V = K and √d = √${next.d} ≈ ${Math.sqrt(next.d).toFixed(3)}`
        : 'output = softmax(QKᵀ) V, with V = K (no scaling)';
    this.#maps.scaled.title = next.score === 'scaled' ? `Scaled scores QKᵀ/√${next.d}` : 'Scores into softmax (unscaled)';
    this.compute();
  }

  start(settings: Settings, rejected: (keyof Settings)[]): void {
    this.#apply(settings);
    this.#noteRejected(rejected);
  }

  #onSeed(): void {
    const seed = parseSeed(this.#seed.value);
    if (seed === null) {
      this.#seed.setAttribute('aria-invalid', 'true');
      this.#setStatus('error', 'Seed: use a whole number from 0 to 4294967295.');
      return;
    }
    this.#seed.removeAttribute('aria-invalid');
    this.#apply({ ...this.#settings, seed });
  }

  #noteRejected(rejected: (keyof Settings)[]): void {
    // Only fixed setting names are shown, never the values from the address.
    if (rejected.length > 0) this.#setStatus('warn', `Ignored invalid setting(s) in the address: ${rejected.join(', ')}.`);
  }

  #setStatus(kind: 'ok' | 'warn' | 'error', message: string): void {
    this.#status.dataset.kind = kind;
    this.#status.textContent = message; // textContent only: messages may quote user input
  }

  /** Reads the editors and runs the wasm core; on bad input keeps the last good heatmaps. */
  compute(): void {
    const { n, m, d, score } = this.#settings;
    let result: AttentionResult;
    try {
      const q = this.#query.read();
      const k = this.#key.read();
      const key = { shape: [1, m, d], data: k };
      result = this.#lab.attention({ query: { shape: [1, n, d], data: q }, key, value: key, score });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#setStatus('error', `${message} — showing the last valid result.`);
      return;
    }
    const rows = labels('q', n);
    const keys = labels('k', m);
    this.#maps.scores.update({ rows: n, cols: m, values: result.scores.data, rowLabels: rows, colLabels: keys });
    this.#maps.scaled.update({ rows: n, cols: m, values: result.scaled.data, rowLabels: rows, colLabels: keys });
    this.#maps.weights.update({ rows: n, cols: m, values: result.weights.data, rowLabels: rows, colLabels: keys });
    this.#maps.output.update({ rows: n, cols: d, values: result.output.data, rowLabels: rows, colLabels: labels('d', d) });
    this.#computeCount++;
    document.body.dataset.computeCount = String(this.#computeCount);
    this.#setStatus('ok', `Computed ${n} queries × ${m} keys (d = ${d}) in the wasm core. Each row of the weights sums to 1.`);
  }
}

async function boot(): Promise<void> {
  const status = byId('status', HTMLElement);
  try {
    const lab = await loadAttentionLab();
    const { settings, rejected } = parseHash(location.hash);
    new AttentionPage(lab, settings).start(settings, rejected);
    document.body.dataset.ready = 'true';
  } catch (err) {
    status.dataset.kind = 'error';
    status.textContent = `Could not start: ${err instanceof Error ? err.message : String(err)}`;
    document.body.dataset.ready = 'error';
  }
}

void boot();
