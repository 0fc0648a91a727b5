// A Chart.js chart as a picture file, with its title: PNG (the chart's own pixels, axis titles and
// legend included, under the title) and SVG, written from the chart's laid-out state (its scales'
// ticks and titles, each dataset's drawn points or bars, the legend's items, the overlays the app's
// plugins recorded), so text stays text. Loaded only on export.
import type { Chart } from 'chart.js';
import { chartOverlays, DARK_SERIES, pageColor } from './deferred-chart';

const FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
const TITLE_BLOCK = 30;
const MARGIN = 10;

const esc = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number): string => String(Math.round(v * 10) / 10);
/** dark-mode series colours back to their light twins: the SVG is always drawn on white */
const LIGHT_OF = new Map(Object.entries(DARK_SERIES).map(([light, dark]) => [dark, light]));
const onWhite = (c: string): string => LIGHT_OF.get(c.toLowerCase()) ?? c;
const colorOf = (c: unknown, i = 0): string => onWhite(Array.isArray(c) ? String(c[i % c.length] ?? '#000') : typeof c === 'string' ? c : '#64748b');

/** The chart under its title, at the chart's own pixel ratio, on the panel's colour (white, or the
 *  dark panel in dark mode, whose light text the chart was drawn with). */
export function chartPngCanvas(chart: Chart, title: string): HTMLCanvasElement {
  const ratio = chart.currentDevicePixelRatio || 1;
  const width = chart.width + 2 * MARGIN;
  const height = chart.height + TITLE_BLOCK + MARGIN;
  const out = document.createElement('canvas');
  out.width = Math.round(width * ratio);
  out.height = Math.round(height * ratio);
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('PNG export: no 2D canvas context');
  ctx.scale(ratio, ratio);
  ctx.fillStyle = pageColor('--lab-panel', '#ffffff');
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = pageColor('--lab-ink', '#0f172a');
  ctx.font = `600 15px ${FONT}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(title, MARGIN, TITLE_BLOCK / 2 + 2);
  ctx.drawImage(chart.canvas, MARGIN, TITLE_BLOCK, chart.width, chart.height);
  return out;
}

const text = (x: number, y: number, s: string, o: { anchor?: string; baseline?: string; size?: number; fill?: string; weight?: string; rotate?: number } = {}): string =>
  `<text x="${n(x)}" y="${n(y)}" font-family="${esc(FONT)}" font-size="${o.size ?? 12}" fill="${o.fill ?? '#334155'}"` +
  `${o.anchor ? ` text-anchor="${o.anchor}"` : ''}${o.baseline ? ` dominant-baseline="${o.baseline}"` : ''}${o.weight ? ` font-weight="${o.weight}"` : ''}` +
  `${o.rotate ? ` transform="rotate(${o.rotate} ${n(x)} ${n(y)})"` : ''}>${esc(s)}</text>`;

function marker(style: unknown, x: number, y: number, r: number, fill: string): string {
  if (!(r > 0)) return '';
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
    scale.ticks.forEach((tick, i) => {
      const p = scale.getPixelForTick(i);
      if (!Number.isFinite(p)) return;
      const label = Array.isArray(tick.label) ? tick.label.join(' ') : String(tick.label ?? '');
      if (horizontal) {
        parts.push(`<line x1="${n(p)}" y1="${n(area.top)}" x2="${n(p)}" y2="${n(area.bottom)}" stroke="#e2e8f0"/>`);
        if (label) parts.push(text(p, scale.top + 6, label, { anchor: 'middle', baseline: 'hanging' }));
      } else {
        parts.push(`<line x1="${n(area.left)}" y1="${n(p)}" x2="${n(area.right)}" y2="${n(p)}" stroke="#e2e8f0"/>`);
        if (label) parts.push(text(scale.right - 6, p, label, { anchor: 'end', baseline: 'central' }));
      }
    });
    const t = (scale.options as unknown as { title?: { display?: boolean; text?: string | string[] } }).title;
    const titleText = t?.display && t.text ? (Array.isArray(t.text) ? t.text.join(' ') : t.text) : '';
    if (titleText) {
      if (horizontal) parts.push(text((scale.left + scale.right) / 2, scale.bottom - 4, titleText, { anchor: 'middle', fill: '#475569' }));
      else parts.push(text(scale.left + 8, (scale.top + scale.bottom) / 2, titleText, { anchor: 'middle', baseline: 'central', fill: '#475569', rotate: -90 }));
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

  const legend = chart.legend as unknown as { options?: { display?: boolean }; legendItems?: { text: string; fillStyle?: unknown; strokeStyle?: unknown; lineDash?: number[]; hidden?: boolean }[]; legendHitBoxes?: { left: number; top: number; width: number; height: number }[] } | undefined;
  if (legend?.options?.display && legend.legendItems && legend.legendHitBoxes) {
    legend.legendItems.forEach((item, i) => {
      const box = legend.legendHitBoxes?.[i];
      if (!box) return;
      const color = esc(colorOf(item.strokeStyle ?? item.fillStyle));
      const cy = box.top + box.height / 2;
      parts.push(`<line x1="${n(box.left)}" y1="${n(cy)}" x2="${n(box.left + 18)}" y2="${n(cy)}" stroke="${color}" stroke-width="2"${item.lineDash?.length ? ` stroke-dasharray="${item.lineDash.join(' ')}"` : ''}/>`);
      parts.push(text(box.left + 24, cy, item.text, { baseline: 'central' }));
    });
  }
  parts.push('</g>');
  const width = Math.ceil(chart.width + 2 * MARGIN);
  const height = Math.ceil(chart.height + TITLE_BLOCK + MARGIN);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n<title>${esc(title)}</title>\n<rect width="100%" height="100%" fill="#ffffff"/>\n${parts.join('\n')}\n</svg>\n`;
}
