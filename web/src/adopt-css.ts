// Component CSS as constructable stylesheets adopted by a document or a shadow root, instead of
// <style> elements. A host page whose Content-Security-Policy has `style-src 'self'` (no
// 'unsafe-inline') blocks <style> elements but not stylesheets built through the CSSOM, so widgets
// keep their styles on such pages. One CSSStyleSheet per CSS text, shared by every root.

const sheets = new Map<string, CSSStyleSheet>();

/**
 * Adds `css` to `root`'s adopted stylesheets, once per root. `first` puts it before the sheets
 * already there (a base that later sheets may override at equal specificity); otherwise it goes last.
 */
export function adoptCss(root: Document | ShadowRoot, css: string, { first = false } = {}): void {
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  const adopted = root.adoptedStyleSheets;
  if (adopted.includes(sheet)) return;
  root.adoptedStyleSheets = first ? [sheet, ...adopted] : [...adopted, sheet];
}

/** The document or shadow root `node` is in, or null while it is detached. */
export function styleRootOf(node: Node): Document | ShadowRoot | null {
  const root = node.getRootNode();
  return root instanceof Document || root instanceof ShadowRoot ? root : null;
}
