// A heatmap as a picture file: the figure's title, the whole grid (every column, however far the box
// is scrolled) with its axis labels and titles, and the colour legend with its ends' values, painted
// by the same painter as the screen (heatmap-paint.ts), either on a canvas (PNG) or into an SVG
// recorder, a 2D-context stand-in that writes <rect> and <text> elements. Loaded only on export.
import { ColorScale } from './heatmap-color';
import { FONT_FAMILY, formatValue, minimumWidth, paintHeatmap, type HeatmapScene, type PaintContext } from './heatmap-paint';

/** What a figure export shows besides the grid. */
export interface FigureExport {
  title: string;
  scene: HeatmapScene;
  /** the legend's ends and the note under it (e.g. "colour scale shared by 4 heatmaps") */
  legend: { min: number; max: number; note?: string };
  /** the grid's height on screen (the export keeps the rows' proportions) */
  gridHeight: number;
}

const TITLE_FONT = `600 15px ${FONT_FAMILY}`;
const LEGEND_FONT = `12px ${FONT_FAMILY}`;
const MARGIN = 12;
const TITLE_BLOCK = 26;
const LEGEND_BLOCK = 40;
const LEGEND_BAR = { width: 180, height: 12 };
/** the export's columns are at least this wide (the screen may squeeze them to MIN_COLUMN_WIDTH) */
const EXPORT_COLUMN_WIDTH = 44;

/** Paints title, grid and legend; returns nothing (the size comes from figureSize). */
function paintFigure(ctx: PaintContext, fig: FigureExport, width: number, height: number): void {
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.font = TITLE_FONT;
  ctx.fillStyle = '#0f172a';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(fig.title, MARGIN, MARGIN + TITLE_BLOCK / 2 - 4);

  ctx.save();
  ctx.translate(MARGIN, MARGIN + TITLE_BLOCK);
  paintHeatmap(ctx, width - 2 * MARGIN, fig.gridHeight, { ...fig.scene, active: null, stickyX: 0, viewWidth: undefined });
  ctx.restore();

  // the legend: the ramp in slices (a rectangle each: the same on a canvas and in SVG), ends labelled
  const y = MARGIN + TITLE_BLOCK + fig.gridHeight + 12;
  const scale = new ColorScale(fig.legend.min, fig.legend.max, fig.scene.scale.diverging);
  ctx.font = LEGEND_FONT;
  ctx.fillStyle = '#475569';
  ctx.textAlign = 'left';
  const minText = formatValue(fig.legend.min);
  ctx.fillText(minText, MARGIN, y + LEGEND_BAR.height / 2);
  const barX = MARGIN + ctx.measureText(minText).width + 8;
  const slices = 60;
  for (let i = 0; i < slices; i++) {
    const v = fig.legend.min + ((i + 0.5) / slices) * (fig.legend.max - fig.legend.min);
    ctx.fillStyle = scale.color(v);
    ctx.fillRect(barX + (i * LEGEND_BAR.width) / slices, y, LEGEND_BAR.width / slices + 0.5, LEGEND_BAR.height);
  }
  ctx.strokeStyle = '#cbd5e1';
  ctx.lineWidth = 1;
  ctx.strokeRect(barX, y, LEGEND_BAR.width, LEGEND_BAR.height);
  ctx.fillStyle = '#475569';
  ctx.fillText(formatValue(fig.legend.max), barX + LEGEND_BAR.width + 8, y + LEGEND_BAR.height / 2);
  if (fig.legend.note) ctx.fillText(fig.legend.note, MARGIN, y + LEGEND_BAR.height + 14);
}

/** Width and height of the exported figure (CSS pixels). */
function figureSize(measure: PaintContext, fig: FigureExport): { width: number; height: number } {
  measure.font = TITLE_FONT;
  const titleWidth = measure.measureText(fig.title).width;
  const grid = minimumWidth(measure, fig.scene, EXPORT_COLUMN_WIDTH);
  return {
    width: Math.ceil(Math.max(grid, titleWidth, LEGEND_BAR.width + 120) + 2 * MARGIN),
    height: Math.ceil(MARGIN + TITLE_BLOCK + fig.gridHeight + LEGEND_BLOCK + (fig.legend.note ? 14 : 0) + MARGIN),
  };
}

/** The figure on a canvas at `ratio` device pixels per CSS pixel. */
export function figureCanvas(fig: FigureExport, ratio = 2): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('PNG export: no 2D canvas context');
  const { width, height } = figureSize(ctx, fig);
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  paintFigure(ctx, fig, width, height);
  return canvas;
}

const escapeXml = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v: number): string => String(Math.round(v * 100) / 100);

const ANCHOR: Record<string, string> = { left: 'start', start: 'start', center: 'middle', right: 'end', end: 'end' };
const BASELINE: Record<string, string> = { middle: 'central', top: 'text-before-edge', hanging: 'text-before-edge', bottom: 'text-after-edge', ideographic: 'text-after-edge' };

/**
 * A 2D context stand-in that records what is painted as SVG elements. Transforms are the painter's
 * translate/rotate pairs, kept as a stack of SVG transform lists; text is measured by a real canvas.
 */
export class SvgRecorder implements PaintContext {
  font = `10px ${FONT_FAMILY}`;
  fillStyle: string | CanvasGradient | CanvasPattern = '#000000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000000';
  lineWidth = 1;
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  readonly #parts: string[] = [];
  #transform: string[] = [];
  readonly #stack: { transform: string[]; font: string; fillStyle: SvgRecorder['fillStyle']; strokeStyle: SvgRecorder['strokeStyle']; lineWidth: number; textAlign: CanvasTextAlign; textBaseline: CanvasTextBaseline }[] = [];
  readonly #measure: PaintContext;

  constructor(measure: PaintContext) {
    this.#measure = measure;
  }

  save(): void {
    const { font, fillStyle, strokeStyle, lineWidth, textAlign, textBaseline } = this;
    this.#stack.push({ transform: [...this.#transform], font, fillStyle, strokeStyle, lineWidth, textAlign, textBaseline });
  }

  restore(): void {
    const s = this.#stack.pop();
    if (!s) return;
    ({ font: this.font, fillStyle: this.fillStyle, strokeStyle: this.strokeStyle, lineWidth: this.lineWidth, textAlign: this.textAlign, textBaseline: this.textBaseline } = s);
    this.#transform = s.transform;
  }

  translate(x: number, y: number): void {
    this.#transform.push(`translate(${num(x)} ${num(y)})`);
  }

  rotate(angle: number): void {
    this.#transform.push(`rotate(${num((angle * 180) / Math.PI)})`);
  }

  measureText(text: string): TextMetrics {
    this.#measure.font = this.font;
    return this.#measure.measureText(text);
  }

  #attrs(): string {
    return this.#transform.length ? ` transform="${this.#transform.join(' ')}"` : '';
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    this.#parts.push(`<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" fill="${escapeXml(String(this.fillStyle))}"${this.#attrs()}/>`);
  }

  strokeRect(x: number, y: number, w: number, h: number): void {
    this.#parts.push(
      `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" fill="none" stroke="${escapeXml(String(this.strokeStyle))}" stroke-width="${num(this.lineWidth)}"${this.#attrs()}/>`,
    );
  }

  fillText(text: string, x: number, y: number): void {
    // "italic 600 12px family" → style, weight, size, family
    const m = /^((?:italic|oblique)\s+)?(\d{3}\s+|bold\s+)?(\d+(?:\.\d+)?)px\s+(.*)$/.exec(this.font);
    const style = m?.[1] ? ` font-style="italic"` : '';
    const weight = m?.[2] ? ` font-weight="${m[2].trim()}"` : '';
    const size = m?.[3] ?? '10';
    const family = m?.[4] ?? 'sans-serif';
    const anchor = ANCHOR[this.textAlign] ?? 'start';
    const baseline = BASELINE[this.textBaseline];
    this.#parts.push(
      `<text x="${num(x)}" y="${num(y)}" font-size="${size}" font-family="${escapeXml(family)}"${style}${weight} fill="${escapeXml(String(this.fillStyle))}" text-anchor="${anchor}"${baseline ? ` dominant-baseline="${baseline}"` : ''}${this.#attrs()}>${escapeXml(text)}</text>`,
    );
  }

  /** The recording as a standalone SVG document of width × height. */
  svg(width: number, height: number, title: string): string {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n<title>${escapeXml(title)}</title>\n${this.#parts.join('\n')}\n</svg>\n`;
  }
}

/** The figure as an SVG document (text stays text: selectable, searchable, any script). */
export function figureSvg(fig: FigureExport, measure?: PaintContext): string {
  const ctx = measure ?? document.createElement('canvas').getContext('2d');
  if (!ctx) throw new Error('SVG export: no 2D canvas context to measure text');
  const { width, height } = figureSize(ctx, fig);
  const svg = new SvgRecorder(ctx);
  paintFigure(svg, fig, width, height);
  return svg.svg(width, height, fig.title);
}
