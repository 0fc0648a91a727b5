// Paints a labelled heatmap on a 2D canvas context (CSS pixels): coloured cells with their values,
// token labels on the left (rows) and on top (columns, slanted when they do not fit their column),
// optional axis titles, and a highlight around the active (hovered or focused) cell. Returns where
// the cells landed, for hit tests and the tooltip.
import type { ColorScale } from './heatmap-color';

const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
const TICK_FONT = `12px ${FONT_FAMILY}`;
const TITLE_FONT = `11px ${FONT_FAMILY}`;
const TICK_COLOR = '#334155';
const TITLE_COLOR = '#475569';
const HIGHLIGHT_COLOR = '#c2410c';
/** line heights of the 12 px labels and the 11 px axis titles */
const TICK_LINE = 15;
const TITLE_LINE = 16;
/** around the drawing, between labels and cells, and between neighbouring cells */
const PAD = 2;
const GAP = 6;
const CELL_GAP = 2;
/** slanted labels: steep enough to read as slanted, never steeper than 60° */
const MIN_SLANT = Math.PI / 6;
const MAX_SLANT = Math.PI / 3;
/** room between neighbouring slanted labels, perpendicular to the text */
const SLANT_SPACING = TICK_LINE + 8;

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
}

/** Where the cell grid is on the canvas (CSS pixels). */
export interface HeatmapLayout {
  rows: number;
  cols: number;
  left: number;
  top: number;
  colWidth: number;
  rowHeight: number;
}

/** The cell (row-major index) under canvas point (x, y), or null. */
export function cellAt(layout: HeatmapLayout, x: number, y: number): number | null {
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

interface ColumnLabels {
  texts: string[];
  widths: number[];
  /** slant of the labels (radians, 0 = horizontal); slanted labels run up to the right */
  slant: number;
  /** height of the label band above the cells */
  band: number;
}

/**
 * Column width and label slant together: labels that do not fit their column are slanted
 * enough that neighbours stay apart (30° to 60°), and the grid leaves room on the right for the
 * last slanted labels. A few passes settle it (each narrows the columns only slightly).
 */
function fitColumns(ctx: CanvasRenderingContext2D, scene: HeatmapScene, gridWidth: number): { colWidth: number; labels: ColumnLabels } {
  const texts = scene.colLabels.map((l) => tickLabel(l));
  const widths = texts.map((t) => ctx.measureText(t).width);
  const widest = Math.max(0, ...widths);
  let overhang = 0;
  let colWidth = gridWidth / scene.cols;
  let slant = 0;
  for (let pass = 0; pass < 3; pass++) {
    colWidth = Math.max(1, (gridWidth - overhang) / scene.cols);
    // neighbouring slanted labels are colWidth·sin(slant) apart, perpendicular to the text
    const steepness = Math.asin(Math.min(1, SLANT_SPACING / colWidth));
    slant = widest + 4 <= colWidth ? 0 : Math.min(MAX_SLANT, Math.max(MIN_SLANT, steepness));
    if (slant === 0) break;
    // right end of label c, from the grid's right edge: its column centre plus the slanted text
    const reach = widths.map((w, c) => (c + 0.5 - scene.cols) * colWidth + w * Math.cos(slant) + (TICK_LINE / 2) * Math.sin(slant));
    overhang = Math.max(0, ...reach);
  }
  const band = slant === 0 ? TICK_LINE : widest * Math.sin(slant) + TICK_LINE * Math.cos(slant);
  return { colWidth, labels: { texts, widths, slant, band } };
}

/** Paints the scene into a cleared context of width × height CSS pixels. */
export function paintHeatmap(ctx: CanvasRenderingContext2D, width: number, height: number, scene: HeatmapScene): HeatmapLayout {
  const { rows, cols } = scene;
  ctx.save();
  ctx.font = TICK_FONT;
  const rowTexts = scene.rowLabels.map((l) => tickLabel(l));
  const rowLabelWidth = Math.max(0, ...rowTexts.map((t) => ctx.measureText(t).width));
  const left = PAD + (scene.yTitle ? TITLE_LINE : 0) + rowLabelWidth + GAP;
  const { colWidth, labels } = fitColumns(ctx, scene, Math.max(1, width - left - PAD));
  const top = PAD + (scene.xTitle ? TITLE_LINE : 0) + labels.band + GAP;
  const layout: HeatmapLayout = { rows, cols, left, top, colWidth, rowHeight: Math.max(1, (height - top - PAD) / rows) };

  paintCells(ctx, scene, layout);
  paintRowLabels(ctx, rowTexts, layout);
  paintColumnLabels(ctx, labels, layout);
  paintTitles(ctx, scene, layout);
  if (scene.active !== null && scene.active < rows * cols) {
    const cell = cellRect(layout, scene.active);
    ctx.lineWidth = 3;
    ctx.strokeStyle = HIGHLIGHT_COLOR;
    ctx.strokeRect(cell.x + 1.5, cell.y + 1.5, cell.width - 3, cell.height - 3);
  }
  ctx.restore();
  return layout;
}

/** Cells in their colours, each with its value when the text fits (dark on light, light on dark). */
function paintCells(ctx: CanvasRenderingContext2D, scene: HeatmapScene, layout: HeatmapLayout): void {
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let font = '';
  for (let i = 0; i < scene.values.length; i++) {
    const v = scene.values[i];
    const cell = cellRect(layout, i);
    ctx.fillStyle = scene.scale.color(v);
    ctx.fillRect(cell.x, cell.y, cell.width, cell.height);
    const text = formatValue(v, scene.digits);
    const size = Math.round(Math.min(13, cell.height * 0.42, (cell.width / Math.max(3, text.length)) * 1.7));
    if (size < 8) continue;
    const cellFont = `${size}px system-ui, sans-serif`;
    if (cellFont !== font) ctx.font = font = cellFont; // parsing a font is the costly part
    ctx.fillStyle = scene.scale.textColor(v);
    ctx.fillText(text, cell.x + cell.width / 2, cell.y + cell.height / 2);
  }
}

function paintRowLabels(ctx: CanvasRenderingContext2D, texts: readonly string[], layout: HeatmapLayout): void {
  ctx.font = TICK_FONT;
  ctx.fillStyle = TICK_COLOR;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  texts.forEach((text, r) => ctx.fillText(text, layout.left - GAP, layout.top + (r + 0.5) * layout.rowHeight));
}

function paintColumnLabels(ctx: CanvasRenderingContext2D, labels: ColumnLabels, layout: HeatmapLayout): void {
  ctx.font = TICK_FONT;
  ctx.fillStyle = TICK_COLOR;
  const baseY = layout.top - GAP;
  labels.texts.forEach((text, c) => {
    const x = layout.left + (c + 0.5) * layout.colWidth;
    if (labels.slant === 0) {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      ctx.fillText(text, x, baseY);
      return;
    }
    // starts above its column and runs up to the right; its lowest corner sits on baseY
    ctx.save();
    ctx.translate(x, baseY - (TICK_LINE / 2) * Math.cos(labels.slant));
    ctx.rotate(-labels.slant);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, 0, 0);
    ctx.restore();
  });
}

function paintTitles(ctx: CanvasRenderingContext2D, scene: HeatmapScene, layout: HeatmapLayout): void {
  ctx.font = TITLE_FONT;
  ctx.fillStyle = TITLE_COLOR;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  if (scene.xTitle) ctx.fillText(scene.xTitle, layout.left + (layout.cols * layout.colWidth) / 2, PAD + TITLE_LINE / 2);
  if (scene.yTitle) {
    ctx.save();
    ctx.translate(PAD + TITLE_LINE / 2, layout.top + (layout.rows * layout.rowHeight) / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(scene.yTitle, 0, 0);
    ctx.restore();
  }
}
