// Paints a labelled heatmap on a 2D context (CSS pixels): coloured cells with their values (one font
// size for the whole grid, negatives included), token labels on the left (rows) and on top (columns,
// slanted when they do not fit their column, run down it when the columns are narrower still),
// optional axis titles, and a highlight around the active (hovered or focused) cell. Axis titles
// are never rotated: the column title sits on its own line above the column labels, the row title
// in the corner above the row labels (the row-label column is widened to hold it), so neither can
// touch a label in any script. When the grid scrolls sideways (`stickyX` > 0) the row labels are
// painted at the visible left edge, over the cells scrolled under them. The context may be a
// canvas or the SVG recorder of heatmap-export.ts. Returns where the cells and every text landed,
// for hit tests, the tooltip and the tests' collision checks.
import type { ColorScale } from './heatmap-color';

export const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
const TICK_FONT = `12px ${FONT_FAMILY}`;
const TITLE_FONT = `italic 11px ${FONT_FAMILY}`;
const TICK_COLOR = '#334155';
const TITLE_COLOR = '#475569';
const HIGHLIGHT_COLOR = '#c2410c';
const STICKY_BACKGROUND = '#ffffff';
/** line heights of the 12 px labels and the 11 px axis titles */
const TICK_LINE = 15;
const TITLE_LINE = 16;
/** around the drawing, between labels and cells, and between neighbouring cells */
const PAD = 2;
const GAP = 6;
const CELL_GAP = 2;
/**
 * slanted labels: steep enough to read as slanted, never steeper than 60°, unless the columns are
 * so narrow that labels at 60° would crowd (closer than SLANT_SPACING): then they run down the
 * column, as a vertical line of Chinese does (characters upright, other text turned sideways)
 */
const MIN_SLANT = Math.PI / 6;
const MAX_SLANT = Math.PI / 3;
const VERTICAL = Math.PI / 2;
/** the scripts whose characters stand upright in a vertical label (a regular expression class) */
const UPRIGHT_SCRIPTS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const UPRIGHT_CHAR = new RegExp(`[${UPRIGHT_SCRIPTS}]`, 'u');
/** a vertical label's runs: each upright character alone, any other text in one run */
const VERTICAL_RUNS = new RegExp(`[${UPRIGHT_SCRIPTS}]|[^${UPRIGHT_SCRIPTS}]+`, 'gu');
/** room between neighbouring slanted labels, perpendicular to the text */
const SLANT_SPACING = TICK_LINE + 8;
/** cell values: the largest size, and the smallest still drawn (below it the cells carry colour only) */
const VALUE_FONT_MAX = 13;
const VALUE_FONT_MIN = 9;
/** the narrowest column: a value such as "-0.12" still fits at VALUE_FONT_MIN */
export const MIN_COLUMN_WIDTH = 30;
/**
 * The narrowest column of a map read by its colours (a translator's attention: a trained row puts
 * its weight on one or two source words; the tooltip, the table and the readouts give the numbers):
 * one line of its 12 px labels, run down the column. A long sentence's columns then all fit a phone
 * (14 words at 390 px) rather than scroll out of sight; a longer one still scrolls.
 */
export const COLOUR_COLUMN_WIDTH = 15;

/** Axis tick text: long tokens are shortened (the tooltip and focus text show them whole). */
export function tickLabel(label: string, max = 10): string {
  const chars = [...label];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : label;
}

export function formatValue(v: number, digits = 2): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return v.toExponential(1);
  const s = v.toFixed(digits);
  return s === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : s; // no "-0.00"
}

/** What the painter needs of a 2D context (a canvas context has it all; so has the SVG recorder). */
export type PaintContext = Pick<
  CanvasRenderingContext2D,
  'save' | 'restore' | 'translate' | 'rotate' | 'measureText' | 'fillRect' | 'fillText' | 'strokeRect' | 'font' | 'fillStyle' | 'strokeStyle' | 'lineWidth' | 'textAlign' | 'textBaseline'
>;

export interface HeatmapScene {
  rows: number;
  cols: number;
  /** row-major, length rows·cols */
  values: readonly number[];
  rowLabels: readonly string[];
  colLabels: readonly string[];
  scale: ColorScale;
  /** decimals of the values drawn in the cells */
  digits: number;
  xTitle?: string;
  yTitle?: string;
  /** index of the highlighted cell, or null */
  active: number | null;
  /** a row lit as a whole (a linked view's query or key), or null (default) */
  litRow?: number | null;
  /** how far the canvas is scrolled sideways in its box: the row labels are painted there (default 0) */
  stickyX?: number;
  /** the width of the box the canvas scrolls in (default: the canvas's): the column title stays in it */
  viewWidth?: number;
  /** the page's colours for the labels, the titles and the row labels' sticky background (default
   *  the light ones: exports and a page without the design system's tokens) */
  ink?: { tick: string; title: string; background: string };
}

/** A painted text's box (axis-aligned; for slanted labels the box of the slanted text). */
export interface TextBox {
  kind: 'row' | 'col' | 'xTitle' | 'yTitle';
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the cell grid is on the canvas (CSS pixels). */
export interface HeatmapLayout {
  rows: number;
  cols: number;
  left: number;
  top: number;
  colWidth: number;
  rowHeight: number;
  /** the row labels' band starts here (the box's scroll offset): cells under it are hidden */
  stickyX: number;
  /** the font size of the cell values, or 0 when they do not fit */
  valueFont: number;
  /** the row drawn lit as a whole, or null */
  litRow: number | null;
  texts: TextBox[];
}

/** The cell (row-major index) under canvas point (x, y), or null (also under the sticky row labels). */
export function cellAt(layout: HeatmapLayout, x: number, y: number): number | null {
  if (x < layout.stickyX + layout.left) return null;
  const c = Math.floor((x - layout.left) / layout.colWidth);
  const r = Math.floor((y - layout.top) / layout.rowHeight);
  if (r < 0 || c < 0 || r >= layout.rows || c >= layout.cols) return null;
  return r * layout.cols + c;
}

/** The painted rectangle of cell `index` (inside the gap between cells). */
export function cellRect(layout: HeatmapLayout, index: number): { x: number; y: number; width: number; height: number } {
  const r = Math.floor(index / layout.cols);
  const c = index % layout.cols;
  return {
    x: layout.left + c * layout.colWidth + CELL_GAP / 2,
    y: layout.top + r * layout.rowHeight + CELL_GAP / 2,
    width: Math.max(1, layout.colWidth - CELL_GAP),
    height: Math.max(1, layout.rowHeight - CELL_GAP),
  };
}

/** Columns wholly in view in a box `viewWidth` wide scrolled to `scrollX`: [first, last + 1). */
export function visibleColumns(layout: HeatmapLayout, scrollX: number, viewWidth: number): [number, number] {
  const from = scrollX + layout.left;
  const to = scrollX + viewWidth;
  const first = Math.max(0, Math.ceil((from - layout.left) / layout.colWidth - 0.02));
  const end = Math.min(layout.cols, Math.floor((to - layout.left) / layout.colWidth + 0.02));
  return [Math.min(first, layout.cols), Math.max(end, Math.min(first, layout.cols))];
}

interface ColumnLabels {
  texts: string[];
  widths: number[];
  /** how far the labels' glyphs reach above and below their middle line (at least half a line each) */
  above: number;
  below: number;
  /** slant of the labels (radians, 0 = horizontal); slanted labels run up to the right */
  slant: number;
  /** height of the label band above the cells */
  band: number;
  /** room the last slanted labels need right of the grid */
  overhang: number;
}

/**
 * The column labels' metrics, kept per font and text: a figure that is redrawn at every step
 * (§5's generation, a training run's maps) measures the same few labels again and again, and
 * measuring text is most of a redraw's cost (Chinese labels go through font fallback each time).
 * Forgotten when a web font arrives, and when it grows past CACHED_TEXTS.
 */
const textMetrics = new Map<string, TextMetrics>();
const CACHED_TEXTS = 4000;
globalThis.document?.fonts?.addEventListener?.('loadingdone', () => textMetrics.clear());
function measureCached(ctx: PaintContext, text: string): TextMetrics {
  const key = `${ctx.font}\u0000${ctx.textBaseline}\u0000${text}`;
  let metrics = textMetrics.get(key);
  if (!metrics) {
    if (textMetrics.size >= CACHED_TEXTS) textMetrics.clear();
    metrics = ctx.measureText(text);
    textMetrics.set(key, metrics);
  }
  return metrics;
}

/**
 * Column width and label slant together: labels that do not fit their column are slanted
 * enough that neighbours stay apart (30° to 60°), and the grid leaves room on the right for the
 * last slanted labels. A few passes settle it (each narrows the columns only slightly).
 */
function fitColumns(ctx: PaintContext, colLabels: readonly string[], cols: number, gridWidth: number): { colWidth: number; labels: ColumnLabels } {
  const texts = colLabels.map((l) => tickLabel(l));
  // measured as painted (slanted labels hang on their middle line): a font whose glyphs reach
  // further than half a line (a tall fallback for Chinese, accented capitals) gets the room it needs
  ctx.textBaseline = 'middle';
  const metrics = texts.map((t) => measureCached(ctx, t));
  const widths = metrics.map((m) => m.width);
  const above = Math.max(TICK_LINE / 2, ...metrics.map((m) => m.actualBoundingBoxAscent || 0));
  const below = Math.max(TICK_LINE / 2, ...metrics.map((m) => m.actualBoundingBoxDescent || 0));
  const widest = Math.max(0, ...widths);
  let overhang = 0;
  let colWidth = gridWidth / cols;
  let slant = 0;
  for (let pass = 0; pass < 3; pass++) {
    colWidth = Math.max(1, (gridWidth - overhang) / cols);
    // neighbouring slanted labels are colWidth·sin(slant) apart, perpendicular to the text
    const steepness = Math.asin(Math.min(1, SLANT_SPACING / colWidth));
    slant = widest + 4 <= colWidth ? 0 : colWidth * Math.sin(MAX_SLANT) < SLANT_SPACING ? VERTICAL : Math.min(MAX_SLANT, Math.max(MIN_SLANT, steepness));
    if (slant === 0) {
      overhang = 0;
      break;
    }
    // right end of label c, from the grid's right edge: its column centre plus the slanted text
    const reach = widths.map((w, c) => (c + 0.5 - cols) * colWidth + w * Math.cos(slant) + below * Math.sin(slant));
    overhang = Math.max(0, ...reach);
  }
  const band = slant === 0 ? TICK_LINE : widest * Math.sin(slant) + (above + below) * Math.cos(slant);
  return { colWidth, labels: { texts, widths, above, below, slant, band, overhang } };
}

/**
 * The row labels as painted, and the width of the row title. The row-label column is at least as
 * wide as the title, so a label that fits that width is painted whole ("Doing what?" under
 * "questions (queries)"); a longer one, a long token of the data, is shortened (tickLabel).
 */
function rowTexts(ctx: PaintContext, scene: Pick<HeatmapScene, 'rowLabels' | 'yTitle'>): { texts: string[]; titleWidth: number } {
  ctx.font = TITLE_FONT;
  const titleWidth = scene.yTitle ? ctx.measureText(scene.yTitle).width : 0;
  ctx.font = TICK_FONT;
  return { texts: scene.rowLabels.map((l) => (ctx.measureText(l).width <= titleWidth ? l : tickLabel(l))), titleWidth };
}

/** Width of the row-label column (labels, or the row title if wider), left of the cells. */
function leftOf(ctx: PaintContext, scene: Pick<HeatmapScene, 'rowLabels' | 'yTitle'>): number {
  const { texts, titleWidth } = rowTexts(ctx, scene);
  const rowLabelWidth = Math.max(0, ...texts.map((l) => ctx.measureText(l).width));
  return PAD + Math.max(rowLabelWidth, titleWidth) + GAP;
}

/**
 * The narrowest canvas that gives every column `columnWidth` (default MIN_COLUMN_WIDTH) pixels:
 * a box narrower than this scrolls sideways instead of squashing the cells.
 */
export function minimumWidth(ctx: PaintContext, scene: Pick<HeatmapScene, 'rowLabels' | 'colLabels' | 'cols' | 'yTitle'>, columnWidth = MIN_COLUMN_WIDTH): number {
  ctx.save();
  const left = leftOf(ctx, scene);
  const { labels } = fitColumns(ctx, scene.colLabels, scene.cols, scene.cols * columnWidth);
  ctx.restore();
  return Math.ceil(left + scene.cols * columnWidth + labels.overhang + PAD);
}

/** rows: this tall each while they fit in ROWS_MAX pixels, shorter beyond (16 rows: 21 px) */
const ROW_HEIGHT = 34;
const ROWS_MIN = 68;
const ROWS_MAX = 340;

/**
 * The canvas height for a scene: the label band as tall as the most slanted column labels need
 * (at the narrowest columns, `columnWidth` wide) plus the rows, so labels never crowd the rows of a
 * short matrix.
 */
export function preferredHeight(ctx: PaintContext, scene: Pick<HeatmapScene, 'rows' | 'cols' | 'colLabels' | 'xTitle' | 'yTitle'>, columnWidth = MIN_COLUMN_WIDTH): number {
  ctx.save();
  ctx.font = TICK_FONT;
  const { labels } = fitColumns(ctx, scene.colLabels, scene.cols, scene.cols * columnWidth);
  ctx.restore();
  const band = scene.yTitle ? Math.max(labels.band, TITLE_LINE) : labels.band;
  const header = PAD + (scene.xTitle ? TITLE_LINE : 0) + band + GAP;
  return Math.ceil(header + Math.min(ROWS_MAX, Math.max(ROWS_MIN, scene.rows * ROW_HEIGHT)) + PAD);
}

/** Paints the scene into a cleared context of width × height CSS pixels. */
export function paintHeatmap(ctx: PaintContext, width: number, height: number, scene: HeatmapScene): HeatmapLayout {
  const { rows, cols } = scene;
  const stickyX = Math.max(0, scene.stickyX ?? 0);
  const lit = scene.litRow ?? null;
  ctx.save();
  const left = leftOf(ctx, scene);
  const { colWidth, labels } = fitColumns(ctx, scene.colLabels, cols, Math.max(1, width - left - PAD));
  // the row title shares the band's bottom line with the column labels: the band is at least its height
  const band = scene.yTitle ? Math.max(labels.band, TITLE_LINE) : labels.band;
  const top = PAD + (scene.xTitle ? TITLE_LINE : 0) + band + GAP;
  const layout: HeatmapLayout = {
    rows,
    cols,
    left,
    top,
    colWidth,
    rowHeight: Math.max(1, (height - top - PAD) / rows),
    stickyX,
    valueFont: 0,
    litRow: lit !== null && lit >= 0 && lit < rows ? lit : null,
    texts: [],
  };

  paintCells(ctx, scene, layout);
  if (layout.litRow !== null) {
    // one outline round the row's cells (under the sticky row labels, like the cells)
    const first = cellRect(layout, layout.litRow * cols);
    const last = cellRect(layout, layout.litRow * cols + cols - 1);
    ctx.lineWidth = 2;
    ctx.strokeStyle = HIGHLIGHT_COLOR;
    ctx.strokeRect(first.x + 1, first.y + 1, last.x + last.width - first.x - 2, first.height - 2);
  }
  paintColumnLabels(ctx, labels, layout, scene.ink?.tick || TICK_COLOR);
  if (stickyX > 0) {
    // the row labels stay in view: over the cells and column labels scrolled under them
    ctx.fillStyle = scene.ink?.background || STICKY_BACKGROUND;
    ctx.fillRect(stickyX, 0, left - CELL_GAP / 2, height);
  }
  paintRowLabels(ctx, rowTexts(ctx, scene).texts, layout, scene.ink?.tick || TICK_COLOR);
  paintTitles(ctx, scene, layout, width);
  if (scene.active !== null && scene.active < rows * cols) {
    const cell = cellRect(layout, scene.active);
    ctx.lineWidth = 3;
    ctx.strokeStyle = HIGHLIGHT_COLOR;
    ctx.strokeRect(cell.x + 1.5, cell.y + 1.5, cell.width - 3, cell.height - 3);
  }
  ctx.restore();
  return layout;
}

/**
 * One font size for every value of the grid: the largest (up to 13 px) at which the widest value
 * fits its cell; 0 (no values, colour only) when that is below 9 px.
 */
function valueFontSize(ctx: PaintContext, texts: readonly string[], layout: HeatmapLayout): number {
  ctx.font = `10px ${FONT_FAMILY}`;
  let widest = 0;
  let longest = 0;
  // values of equal length are about equally wide: measure only the longest few
  for (const t of texts) longest = Math.max(longest, t.length);
  for (const t of texts) if (t.length >= longest - 1) widest = Math.max(widest, ctx.measureText(t).width);
  const cellWidth = Math.max(1, layout.colWidth - CELL_GAP) - 4;
  const size = Math.floor(Math.min(VALUE_FONT_MAX, (layout.rowHeight - CELL_GAP) * 0.5, widest > 0 ? (10 * cellWidth) / widest : VALUE_FONT_MAX));
  return size >= VALUE_FONT_MIN ? size : 0;
}

/** Cells in their colours, each with its value (dark on light, light on dark). */
function paintCells(ctx: PaintContext, scene: HeatmapScene, layout: HeatmapLayout): void {
  const texts = scene.values.map((v) => formatValue(v, scene.digits));
  layout.valueFont = valueFontSize(ctx, texts, layout);
  ctx.font = `${layout.valueFont}px ${FONT_FAMILY}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < scene.values.length; i++) {
    const v = scene.values[i];
    const cell = cellRect(layout, i);
    ctx.fillStyle = scene.scale.color(v);
    ctx.fillRect(cell.x, cell.y, cell.width, cell.height);
    if (layout.valueFont === 0) continue;
    ctx.fillStyle = scene.scale.textColor(v);
    ctx.fillText(texts[i], cell.x + cell.width / 2, cell.y + cell.height / 2);
  }
}

function paintRowLabels(ctx: PaintContext, texts: readonly string[], layout: HeatmapLayout, color: string): void {
  // TICK_FONT's 12 px while the rows are a tick line tall; on shorter rows (many rows on a phone) a
  // size that leaves a pixel between neighbours, down to 9 px, so that the labels never touch
  // (their widths were measured at 12 px: they fit)
  const size = Math.max(9, Math.min(12, Math.floor(layout.rowHeight - 1)));
  ctx.font = `${size}px ${FONT_FAMILY}`;
  ctx.fillStyle = color;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const right = layout.stickyX + layout.left - GAP;
  texts.forEach((text, r) => {
    const y = layout.top + (r + 0.5) * layout.rowHeight;
    ctx.fillText(text, right, y);
    const width = ctx.measureText(text).width;
    const h = Math.min(TICK_LINE, size + 1);
    layout.texts.push({ kind: 'row', text, x: right - width, y: y - h / 2, width, height: h });
  });
}

function paintColumnLabels(ctx: PaintContext, labels: ColumnLabels, layout: HeatmapLayout, color: string): void {
  ctx.font = TICK_FONT;
  ctx.fillStyle = color;
  const baseY = layout.top - GAP;
  const { slant, above, below } = labels;
  labels.texts.forEach((text, c) => {
    const x = layout.left + (c + 0.5) * layout.colWidth;
    const w = labels.widths[c];
    if (slant === 0) {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      ctx.fillText(text, x, baseY);
      layout.texts.push({ kind: 'col', text, x: x - w / 2, y: baseY - TICK_LINE, width: w, height: TICK_LINE });
      return;
    }
    if (slant === VERTICAL) {
      paintVertical(ctx, text, x, baseY - w);
      const width = above + below;
      layout.texts.push({ kind: 'col', text, x: x - width / 2, y: baseY - w, width, height: w });
      return;
    }
    // starts above its column and runs up to the right; its lowest corner sits on baseY
    ctx.save();
    ctx.translate(x, baseY - below * Math.cos(slant));
    ctx.rotate(-slant);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, 0, 0);
    ctx.restore();
    const height = w * Math.sin(slant) + (above + below) * Math.cos(slant);
    const x0 = x - above * Math.sin(slant);
    layout.texts.push({ kind: 'col', text, x: x0, y: baseY - height, width: w * Math.cos(slant) + (above + below) * Math.sin(slant), height });
  });
}

/**
 * `text` down from `top`, centred on `x`: Chinese (Japanese, Korean) characters upright, one under
 * the other, each as tall as it is wide; any other run (brackets, digits, Latin) turned to read
 * downwards. As long as the text is wide (its measured width), give or take kerning.
 */
function paintVertical(ctx: PaintContext, text: string, x: number, top: number): void {
  const runs = text.match(VERTICAL_RUNS) ?? [];
  ctx.textBaseline = 'middle';
  let y = top;
  for (const run of runs) {
    const advance = ctx.measureText(run).width;
    if (UPRIGHT_CHAR.test(run)) {
      ctx.textAlign = 'center';
      ctx.fillText(run, x, y + advance / 2);
    } else {
      ctx.save();
      ctx.translate(x, y);
      ctx.rotate(VERTICAL);
      ctx.textAlign = 'left';
      ctx.fillText(run, 0, 0);
      ctx.restore();
    }
    y += advance;
  }
}

/** The column title on its own line above the column labels; the row title in the corner. */
function paintTitles(ctx: PaintContext, scene: HeatmapScene, layout: HeatmapLayout, width: number): void {
  ctx.font = TITLE_FONT;
  ctx.fillStyle = scene.ink?.title || TITLE_COLOR;
  ctx.textBaseline = 'middle';
  if (scene.xTitle) {
    const w = ctx.measureText(scene.xTitle).width;
    // centred over the grid's visible part, never left of it
    const from = layout.stickyX + layout.left;
    const to = Math.min(width, layout.stickyX + (scene.viewWidth ?? width), layout.left + layout.cols * layout.colWidth);
    const x = Math.max(from, Math.min(to - w, (from + to - w) / 2));
    ctx.textAlign = 'left';
    ctx.fillText(scene.xTitle, x, PAD + TITLE_LINE / 2);
    layout.texts.push({ kind: 'xTitle', text: scene.xTitle, x, y: PAD, width: w, height: TITLE_LINE });
  }
  if (scene.yTitle) {
    const w = ctx.measureText(scene.yTitle).width;
    const right = layout.stickyX + layout.left - GAP;
    const y = layout.top - GAP - TITLE_LINE / 2;
    ctx.textAlign = 'right';
    ctx.fillText(scene.yTitle, right, y);
    layout.texts.push({ kind: 'yTitle', text: scene.yTitle, x: right - w, y: y - TITLE_LINE / 2, width: w, height: TITLE_LINE });
  }
}
