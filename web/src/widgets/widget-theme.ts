// Light or dark for a widget: `theme="light|dark"` on the element decides; `auto` (or none) follows
// the host page. What the reader sees behind the widget is the first guide: the nearest opaque
// background among its ancestors, dark or light (a blog theme that darkens itself under
// prefers-color-scheme, or behind a class on <html>, has such a background). With no background
// set anywhere, the browser paints the page in its used colour scheme: `color-scheme: dark`, or
// `light dark` when the reader prefers dark. The widget shows the choice as the custom state
// :state(dark) of its host element, which selects the design system's dark tokens; a host page
// may still set any --lab-* token on the element itself, in either scheme.
import darkCss from '../design-dark.css?inline';

export type Theme = 'light' | 'dark' | 'auto';

/** design-dark.css's tokens, for a widget's host in the dark state */
function darkTokens(css: string): string {
  const body = /:root\s*\{([^}]*)\}/.exec(css)?.[1];
  if (!body) throw new Error('design-dark.css has no :root block of tokens');
  return body;
}

export const WIDGET_THEME_CSS = `:host(:state(dark)) {${darkTokens(darkCss)}; color-scheme: dark; }\n:host(:state(light)) { color-scheme: light; }\n`;

/** [r, g, b, alpha] of a computed `rgb()`/`rgba()` colour, or null for any other form. */
export function parseRgb(color: string): [number, number, number, number] | null {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(color.trim());
  if (!m) return null;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
}

/** Relative luminance (WCAG) of an sRGB colour given as 0–255 channels. */
export function luminance([r, g, b]: readonly number[]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The parent across shadow boundaries (a widget inside another component's shadow root). */
function parentOf(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** Whether the host page around `el` is dark (see the top of this file). */
export function hostIsDark(el: Element, prefersDark: boolean): boolean {
  for (let n = parentOf(el); n; n = parentOf(n)) {
    const rgb = parseRgb(getComputedStyle(n).backgroundColor);
    if (rgb && rgb[3] >= 0.5) return luminance(rgb) < 0.2;
  }
  const scheme = getComputedStyle(el).colorScheme.split(/\s+/);
  if (!scheme.includes('dark')) return false;
  return !scheme.includes('light') || prefersDark;
}

const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
const watched = new Set<() => void>();
let observer: MutationObserver | null = null;

function recheckAll(): void {
  for (const check of watched) check();
}

/**
 * Calls `check` now and whenever the host page may have changed scheme: the reader's preference,
 * or a theme switch on <html> or <body> (their class, style or data attributes). Returns the stop.
 */
export function watchHostScheme(check: () => void): () => void {
  watched.add(check);
  if (watched.size === 1) {
    darkQuery?.addEventListener('change', recheckAll);
    observer = new MutationObserver(recheckAll);
    observer.observe(document.documentElement, { attributes: true });
    if (document.body) observer.observe(document.body, { attributes: true });
  }
  check();
  return () => {
    watched.delete(check);
    if (watched.size === 0) {
      darkQuery?.removeEventListener('change', recheckAll);
      observer?.disconnect();
      observer = null;
    }
  };
}

/** Dark or not, for a widget whose theme attribute is `attr`. */
export function widgetIsDark(el: Element, attr: string | null): boolean {
  if (attr === 'dark') return true;
  if (attr === 'light') return false;
  return hostIsDark(el, darkQuery?.matches ?? false);
}
