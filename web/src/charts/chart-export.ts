// A Chart.js chart as a picture file, with its title and legend: PNG (the chart's own pixels, axis
// titles included, under the title, the legend drawn under it) and SVG, written from the chart's
// laid-out state (its scales' ticks and titles, each dataset's drawn points or bars, the overlays
// the app's plugins recorded) and its legend entries (chart-legend.ts), so text stays text. Loaded
// only on export.
import type { Chart } from 'chart.js';
import { chartLegends, type LegendEntry } from './chart-legend';
import { canvasColor, chartOverlays, DARK_SERIES, seriesColor } from './deferred-chart';

const FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
const TITLE_BLOCK = 30;
const MARGIN = 10;

const esc = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number): string => String(Math.round(v * 10) / 10);
/** dark-mode series colours back to their light twins: the SVG is always drawn on white */
const LIGHT_OF = new Map(Object.entries(DARK_SERIES).map(([light, dark]) => [dark, light]));
const onWhite = (c: string): string => LIGHT_OF.get(c.toLowerCase()) ?? c;
const colorOf = (c: unknown, i = 0): string => onWhite(Array.isArray(c) ? String(c[i % c.length] ?? '#000') : typeof c === 'string' ? c : '#64748b');

/** One legend entry's place in the picture: its sample from x to x + SAMPLE, its text after it. */
interface PlacedEntry {
  entry: LegendEntry;
  x: number;
  y: number;
}
const SAMPLE = 22;
const ENTRY_GAP = 16;
const LEGEND_ROW = 18;
const LEGEND_FONT = `12px ${FONT}`;

/** The chart's legend entries in rows of at most `width` px, under y = 0; and the rows' height. */
function placeLegend(entries: readonly LegendEntry[], width: number): { placed: PlacedEntry[]; height: number } {
  const measure = document.createElement('canvas').getContext('2d');
  if (measure) measure.font = LEGEND_FONT;
  const placed: PlacedEntry[] = [];
  let x = 0;
  let row = 0;
  for (const entry of entries) {
    const w = SAMPLE + 6 + (measure?.measureText(entry.label).width ?? entry.label.length * 7);
    if (x > 0 && x + w > width) {
      x = 0;
      row++;
    }
    placed.push({ entry, x, y: row * LEGEND_ROW + LEGEND_ROW / 2 });
    x += w + ENTRY_GAP;
  }
  return { placed, height: entries.length ? (row + 1) * LEGEND_ROW + 6 : 0 };
}

/** The chart under its title, its legend under it, at the chart's own pixel ratio, on its panel's
 *  colour as the chart's canvas sees it (white, or the dark panel of a dark scope, whose light text
 *  the chart was drawn with). */
export function chartPngCanvas(chart: Chart, title: string): HTMLCanvasElement {
  const ratio = chart.currentDevicePixelRatio || 1;
  const legend = placeLegend(chartLegends.get(chart.canvas) ?? [], chart.width);
  const width = chart.width + 2 * MARGIN;
  const height = chart.height + TITLE_BLOCK + legend.height + MARGIN;
  const out = document.createElement('canvas');
  out.width = Math.round(width * ratio);
  out.height = Math.round(height * ratio);
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('PNG export: no 2D canvas context');
  ctx.scale(ratio, ratio);
  ctx.fillStyle = canvasColor(chart.canvas, '--lab-panel', '#ffffff');
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = canvasColor(chart.canvas, '--lab-ink', '#0f172a');
  ctx.font = `600 15px ${FONT}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(title, MARGIN, TITLE_BLOCK / 2 + 2);
  ctx.drawImage(chart.canvas, MARGIN, TITLE_BLOCK, chart.width, chart.height);
  ctx.font = LEGEND_FONT;
  const top = TITLE_BLOCK + chart.height;
  for (const { entry, x, y } of legend.placed) {
    const color = seriesColor(chart.canvas, entry.color);
    ctx.fillStyle = color;
    ctx.strokeStyle = color;
    const [x0, cy] = [MARGIN + x, top + y];
    if (entry.box) ctx.fillRect(x0 + 5, cy - 6, 12, 12);
    else {
      ctx.lineWidth = 2;
      if (entry.line !== false) {
        ctx.setLineDash(entry.dash ? [...entry.dash] : []);
        ctx.beginPath();
        ctx.moveTo(x0, cy);
        ctx.lineTo(x0 + SAMPLE, cy);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (entry.marker === 'circle' || entry.marker === 'triangle' || entry.marker === 'rect') {
        ctx.beginPath();
        if (entry.marker === 'circle') ctx.arc(x0 + SAMPLE / 2, cy, 3.5, 0, 2 * Math.PI);
        else if (entry.marker === 'rect') ctx.rect(x0 + SAMPLE / 2 - 3.5, cy - 3.5, 7, 7);
        else {
          ctx.moveTo(x0 + SAMPLE / 2, cy - 4.2);
          ctx.lineTo(x0 + SAMPLE / 2 + 3.9, cy + 2.8);
          ctx.lineTo(x0 + SAMPLE / 2 - 3.9, cy + 2.8);
          ctx.closePath();
        }
        ctx.fill();
      }
    }
    ctx.fillStyle = canvasColor(chart.canvas, '--lab-ink-soft', '#334155');
    ctx.fillText(entry.label, x0 + SAMPLE + 6, cy);
  }
  return out;
}

const text = (x: number, y: number, s: string, o: { anchor?: string; baseline?: string; size?: number; fill?: string; weight?: string; rotate?: number } = {}): string =>
  `<text x="${n(x)}" y="${n(y)}" font-family="${esc(FONT)}" font-size="${o.size ?? 12}" fill="${o.fill ?? '#334155'}"` +
  `${o.anchor ? ` text-anchor="${o.anchor}"` : ''}${o.baseline ? ` dominant-baseline="${o.baseline}"` : ''}${o.weight ? ` font-weight="${o.weight}"` : ''}` +
  `${o.rotate ? ` transform="rotate(${o.rotate} ${n(x)} ${n(y)})"` : ''}>${esc(s)}</text>`;

function marker(style: unknown, x: number, y: number, r: number, fill: string): string {
  if (!(r > 0)) return '';
  if (style === 'rect') return `<rect x="${n(x - r)}" y="${n(y - r)}" width="${n(2 * r)}" height="${n(2 * r)}" fill="${fill}"/>`;
  if (style === 'triangle') return `<path d="M${n(x)} ${n(y - r * 1.2)}L${n(x + r * 1.1)} ${n(y + r * 0.8)}L${n(x - r * 1.1)} ${n(y + r * 0.8)}Z" fill="${fill}"/>`;
  return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${fill}"/>`;
}

/** The chart as an SVG document: grid, axes, ticks, axis titles, lines/bars, legend, overlays, title. */
export function chartSvg(chart: Chart, title: string): string {
  const parts: string[] = [];
  const area = chart.chartArea;
  const dy = TITLE_BLOCK;
  parts.push(text(MARGIN, TITLE_BLOCK / 2 + 2, title, { size: 15, weight: '600', fill: '#0f172a', baseline: 'central' }));
  parts.push(`<g transform="translate(${MARGIN} ${dy})">`);
  for (const scale of Object.values(chart.scales)) {
    const horizontal = scale.isHorizontal();
    // a right-hand axis (line-chart.ts y2) draws no grid of its own, its labels and title on the right
    const right = scale.position === 'right';
    const grid = (scale.options as unknown as { grid?: { drawOnChartArea?: boolean } }).grid?.drawOnChartArea !== false;
    scale.ticks.forEach((tick, i) => {
      const p = scale.getPixelForTick(i);
      if (!Number.isFinite(p)) return;
      const label = Array.isArray(tick.label) ? tick.label.join(' ') : String(tick.label ?? '');
      if (horizontal) {
        parts.push(`<line x1="${n(p)}" y1="${n(area.top)}" x2="${n(p)}" y2="${n(area.bottom)}" stroke="#e2e8f0"/>`);
        if (label) parts.push(text(p, scale.top + 6, label, { anchor: 'middle', baseline: 'hanging' }));
      } else {
        if (grid) parts.push(`<line x1="${n(area.left)}" y1="${n(p)}" x2="${n(area.right)}" y2="${n(p)}" stroke="#e2e8f0"/>`);
        if (label) parts.push(right ? text(scale.left + 6, p, label, { anchor: 'start', baseline: 'central' }) : text(scale.right - 6, p, label, { anchor: 'end', baseline: 'central' }));
      }
    });
    const t = (scale.options as unknown as { title?: { display?: boolean; text?: string | string[] } }).title;
    const titleText = t?.display && t.text ? (Array.isArray(t.text) ? t.text.join(' ') : t.text) : '';
    if (titleText) {
      if (horizontal) parts.push(text((scale.left + scale.right) / 2, scale.bottom - 4, titleText, { anchor: 'middle', fill: '#475569' }));
      else parts.push(text(right ? scale.right - 8 : scale.left + 8, (scale.top + scale.bottom) / 2, titleText, { anchor: 'middle', baseline: 'central', fill: '#475569', rotate: -90 }));
    }
  }
  parts.push(`<path d="M${n(area.left)} ${n(area.top)}V${n(area.bottom)}H${n(area.right)}" fill="none" stroke="#94a3b8"/>`);

  chart.data.datasets.forEach((dataset, i) => {
    const meta = chart.getDatasetMeta(i);
    if (!chart.isDatasetVisible(i)) return;
    const ds = dataset as unknown as Record<string, unknown>;
    if (meta.type === 'bar') {
      meta.data.forEach((el, j) => {
        const { x, y, base, width, height, horizontal } = el.getProps(['x', 'y', 'base', 'width', 'height', 'horizontal'], true) as unknown as Record<string, number & boolean>;
        const rect = horizontal
          ? { x: Math.min(base, x), y: y - height / 2, w: Math.abs(x - base), h: height }
          : { x: x - width / 2, y: Math.min(base, y), w: width, h: Math.abs(base - y) };
        if ([rect.x, rect.y, rect.w, rect.h].every(Number.isFinite)) {
          parts.push(`<rect x="${n(rect.x)}" y="${n(rect.y)}" width="${n(rect.w)}" height="${n(rect.h)}" fill="${esc(colorOf(ds.backgroundColor, j))}"/>`);
        }
      });
      return;
    }
    const color = esc(colorOf(ds.borderColor));
    const dash = Array.isArray(ds.borderDash) && ds.borderDash.length ? ` stroke-dasharray="${(ds.borderDash as number[]).join(' ')}"` : '';
    const points = meta.data.map((el) => el.getProps(['x', 'y', 'skip'], true) as unknown as { x: number; y: number; skip?: boolean }).filter((p) => !p.skip && Number.isFinite(p.x) && Number.isFinite(p.y));
    if (points.length > 1) {
      parts.push(`<polyline points="${points.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="${n(Number(ds.borderWidth ?? 1.5))}" stroke-linejoin="round"${dash}/>`);
    }
    for (const p of points) parts.push(marker(ds.pointStyle, p.x, p.y, Number(ds.pointRadius ?? 0), color));
  });

  for (const o of chartOverlays.get(chart) ?? []) {
    if (o.kind === 'line') parts.push(`<line x1="${n(o.x1)}" y1="${n(o.y1)}" x2="${n(o.x2)}" y2="${n(o.y2)}" stroke="${esc(onWhite(o.color))}" stroke-width="1.5"${o.dash ? ` stroke-dasharray="${o.dash.join(' ')}"` : ''}/>`);
    else parts.push(text(o.x, o.y, o.text, { anchor: o.align === 'right' ? 'end' : o.align === 'center' ? 'middle' : 'start', baseline: 'central', fill: onWhite(o.color) }));
  }

  const legend = placeLegend(chartLegends.get(chart.canvas) ?? [], chart.width);
  for (const { entry, x, y } of legend.placed) {
    const color = esc(colorOf(entry.color));
    const cy = chart.height + y;
    if (entry.box) parts.push(`<rect x="${n(x + 5)}" y="${n(cy - 6)}" width="12" height="12" fill="${color}"/>`);
    else {
      if (entry.line !== false) parts.push(`<line x1="${n(x)}" y1="${n(cy)}" x2="${n(x + SAMPLE)}" y2="${n(cy)}" stroke="${color}" stroke-width="2"${entry.dash?.length ? ` stroke-dasharray="${entry.dash.join(' ')}"` : ''}/>`);
      parts.push(marker(entry.marker, x + SAMPLE / 2, cy, entry.marker && entry.marker !== 'none' ? 3.5 : 0, color));
    }
    parts.push(text(x + SAMPLE + 6, cy, entry.label, { baseline: 'central' }));
  }
  parts.push('</g>');
  const width = Math.ceil(chart.width + 2 * MARGIN);
  const height = Math.ceil(chart.height + TITLE_BLOCK + legend.height + MARGIN);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n<title>${esc(title)}</title>\n<rect width="100%" height="100%" fill="#ffffff"/>\n${parts.join('\n')}\n</svg>\n`;
}
