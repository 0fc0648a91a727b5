// Formulas as MathML, which Chromium, Firefox and Safari render natively (no KaTeX download).
// mathml() parses a CONSTANT MathML string written in our own source, never user or URL text; as a
// second line of defence it refuses anything that is not plain presentation MathML.
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

/** Presentation MathML elements a formula may use; anything else is refused. */
const ALLOWED = new Set([
  'math', 'mrow', 'mi', 'mn', 'mo', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mtext',
  'mspace', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded', 'semantics',
  'annotation',
]);
const ALLOWED_ATTRIBUTES = new Set([
  'display', 'mathvariant', 'stretchy', 'fence', 'separator', 'form', 'lspace', 'rspace', 'width',
  'columnalign', 'accent', 'movablelimits', 'largeop', 'symmetric', 'scriptlevel', 'displaystyle',
  'encoding', 'aria-label', 'aria-hidden', 'class', 'xmlns',
]);

/**
 * A <math> element from MathML markup: either a whole `<math …>…</math>` or its content (wrapped in
 * `<math>` for you). Throws on markup that does not parse or uses anything outside presentation MathML.
 */
export function mathml(markup: string, options: { display?: 'block' | 'inline'; label?: string } = {}): Element {
  const source = /^\s*<math[\s>]/.test(markup) ? markup : `<math>${markup}</math>`;
  const withNs = source.replace(/^\s*<math(?![^>]*\bxmlns=)/, `<math xmlns="${MATHML_NS}"`);
  const doc = new DOMParser().parseFromString(withNs, 'application/xml');
  const root = doc.documentElement;
  if (doc.getElementsByTagName('parsererror').length > 0 || root.namespaceURI !== MATHML_NS || root.localName !== 'math') {
    throw new Error(`mathml: not well-formed MathML: ${markup.slice(0, 60)}`);
  }
  for (const el of [root, ...Array.from(root.getElementsByTagName('*'))]) {
    if (el.namespaceURI !== MATHML_NS || !ALLOWED.has(el.localName)) {
      throw new Error(`mathml: element <${el.localName}> is not allowed`);
    }
    for (const attr of Array.from(el.attributes)) {
      if (!ALLOWED_ATTRIBUTES.has(attr.name)) throw new Error(`mathml: attribute ${attr.name} is not allowed`);
    }
  }
  if (options.display) root.setAttribute('display', options.display);
  if (options.label) root.setAttribute('aria-label', options.label);
  return document.importNode(root, true);
}

// Shared formulas (note §3.1–§3.6), as constants for mathml().
const Q = '<mi>Q</mi>';
const KT = '<msup><mi>K</mi><mi mathvariant="normal">T</mi></msup>';
const V = '<mi>V</mi>';
const SOFTMAX = '<mi>softmax</mi><mo>&#x2061;</mo>';

/** §3.1 dot-product attention: softmax(QKᵀ) V */
export const DOT_ATTENTION = `<mrow><mi>Attention</mi><mo>(</mo>${Q}<mo>,</mo><mi>K</mi><mo>,</mo>${V}<mo>)</mo><mo>=</mo>${SOFTMAX}<mrow><mo>(</mo>${Q}${KT}<mo>)</mo></mrow>${V}</mrow>`;

/** §3.2 scaled dot-product attention: softmax(QKᵀ/√d) V */
export const SCALED_DOT_ATTENTION = `<mrow><mi>Attention</mi><mo>(</mo>${Q}<mo>,</mo><mi>K</mi><mo>,</mo>${V}<mo>)</mo><mo>=</mo>${SOFTMAX}<mrow><mo>(</mo><mfrac><mrow>${Q}${KT}</mrow><msqrt><mi>d</mi></msqrt></mfrac><mo>)</mo></mrow>${V}</mrow>`;

/** softmax over the keys: wᵢⱼ = exp(sᵢⱼ) / Σₖ exp(sᵢₖ) */
export const SOFTMAX_ROW = `<mrow><msub><mi>w</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo><mfrac><mrow><mi>exp</mi><mo>&#x2061;</mo><msub><mi>s</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub></mrow><mrow><munder><mo>&#x2211;</mo><mi>k</mi></munder><mi>exp</mi><mo>&#x2061;</mo><msub><mi>s</mi><mrow><mi>i</mi><mi>k</mi></mrow></msub></mrow></mfrac></mrow>`;

/** §3.4 QKV projections, one formula each: Q = XW_Qᵀ + b_Q, K = XW_Kᵀ + b_K, V = XW_Vᵀ + b_V */
export const QKV_PROJECTIONS = ['Q', 'K', 'V'].map(
  (m, i) => `<mrow><mi>${m}</mi><mo>=</mo><mi>X</mi><msubsup><mi>W</mi><mi>${m}</mi><mi mathvariant="normal">T</mi></msubsup><mo>+</mo><msub><mi>b</mi><mi>${m}</mi></msub>${i < 2 ? '<mo>,</mo>' : ''}</mrow>`,
);

/** §3.6 multi-head: MultiHead(X) = Concat(head₁, …, head_h) W_Oᵀ */
export const MULTI_HEAD = `<mrow><mi>MultiHead</mi><mo>(</mo><mi>X</mi><mo>)</mo><mo>=</mo><mi>Concat</mi><mo>(</mo><msub><mi>head</mi><mn>1</mn></msub><mo>,</mo><mo>…</mo><mo>,</mo><msub><mi>head</mi><mi>h</mi></msub><mo>)</mo><msubsup><mi>W</mi><mi>O</mi><mi mathvariant="normal">T</mi></msubsup></mrow>`;
