// The probes tests/e2e/layout.test.mjs runs in the page with page.evaluate (each is serialised on
// its own: it may use only the page's globals and its argument), each returning what it found
// wrong, [] when nothing.
/** Elements of `section` that stick out of its card (outside any box that clips or scrolls them). */
export function overflowingOf(sectionId) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  if (!card) return [`no card for ${sectionId}`];
  const box = card.getBoundingClientRect();
  const out = [];
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== card; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return true;
    }
    return false;
  };
  for (const el of card.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden' || el.closest('[hidden], dialog:not([open])')) continue;
    if (r.left < box.left - 1 || r.right > box.right + 1) {
      if (clipped(el)) continue;
      const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
      out.push(`${name} [${Math.round(r.left)}, ${Math.round(r.right)}] outside [${Math.round(box.left)}, ${Math.round(box.right)}]`);
    }
  }
  return out.slice(0, 5);
}

/** Heatmaps of `section` whose frame scrolls sideways without a visible "+N columns" affordance. */
export function hiddenColumnsOf(sectionId) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  const out = [];
  for (const frame of card?.querySelectorAll('figure.heatmap .chart-box') ?? []) {
    if (frame.scrollWidth <= frame.clientWidth + 1) continue;
    const fig = frame.closest('figure');
    const more = [...fig.querySelectorAll('[data-more-columns]')].find((m) => {
      const r = m.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(m).visibility !== 'hidden';
    });
    if (!more) out.push(`${fig.id}: ${frame.scrollWidth} px of columns in ${frame.clientWidth} px, no affordance`);
  }
  return out;
}

/**
 * A heatmap (figure `figId`) whose columns do not all show at once: columns past its box's right
 * edge before any scrolling, and columns narrower than a line of their 12 px labels (the labels of
 * neighbours would touch). [] when every column is in view, each with its label painted.
 */
export function columnsOutOfReach(figId) {
  const fig = document.getElementById(figId);
  const out = fig?.querySelector('output.heatmap-data');
  if (!out?.dataset.grid || !out.dataset.texts) return [`${figId}: not drawn`];
  const [left, , colWidth] = out.dataset.grid.split(',').map(Number);
  const cols = Number(out.dataset.shape.split(',')[1]);
  const box = fig.querySelector('.chart-box');
  const problems = [];
  const inView = Math.min(cols, Math.floor((box.clientWidth - left) / colWidth + 0.02));
  if (inView < cols) problems.push(`${figId}: ${cols - inView} of ${cols} columns past the box's edge (${box.scrollWidth} px wide in ${box.clientWidth} px)`);
  if (colWidth < 15) problems.push(`${figId}: columns ${colWidth} px wide, narrower than a line of their labels`);
  const labels = JSON.parse(out.dataset.texts).filter((b) => b[0] === 'col');
  if (labels.length !== cols) problems.push(`${figId}: ${labels.length} column labels painted for ${cols} columns`);
  return problems;
}

/**
 * Axis titles of `section`'s painted heatmaps that touch a row or column label, and texts the
 * canvas cuts (a slanted column label running out of its top). The labels are painted inside the
 * canvas: each heatmap writes where every text landed (CSS pixels of the canvas) to its
 * output.heatmap-data's data-texts, [[kind, x, y, width, height, text]…], at each paint.
 */
export function titleCollisionsOf(sectionId) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  const hits = [];
  const cut = [];
  let painted = 0;
  for (const fig of card?.querySelectorAll('figure.heatmap') ?? []) {
    const texts = fig.querySelector('output.heatmap-data')?.dataset.texts;
    if (!texts || fig.getClientRects().length === 0) continue;
    painted++;
    const boxes = JSON.parse(texts);
    const canvas = fig.querySelector('canvas').getBoundingClientRect();
    // 1 px of rounding slack
    for (const [kind, x, y, w, h, text] of boxes) {
      if (x < -1 || y < -1 || x + w > canvas.width + 1 || y + h > canvas.height + 1) cut.push(`${fig.id}: ${kind} "${text}" at [${x}, ${y}, ${w}, ${h}] in ${Math.round(canvas.width)} × ${Math.round(canvas.height)}`);
    }
    for (const a of boxes.filter((b) => b[0] === 'xTitle' || b[0] === 'yTitle')) {
      for (const b of boxes.filter((x) => x[0] === 'row' || x[0] === 'col')) {
        // 1 px of rounding slack
        const overlapX = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
        const overlapY = Math.min(a[2] + a[4], b[2] + b[4]) - Math.max(a[2], b[2]);
        if (overlapX > 1 && overlapY > 1) hits.push(`${fig.id}: ${JSON.stringify(a)} × ${JSON.stringify(b)}`);
      }
    }
  }
  return { painted, hits: hits.slice(0, 5), cut: cut.slice(0, 5) };
}

/**
 * Visible controls (button, input, select) in the page chrome and the article that still look like
 * the browser's defaults: the defaults are read from a control in an unstyled shadow root.
 */
export function unstyledControls() {
  const host = document.createElement('div');
  document.body.append(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const ua = {};
  for (const tag of ['button', 'input', 'select']) {
    const c = document.createElement(tag);
    shadow.append(c);
    const s = getComputedStyle(c);
    ua[tag] = { radius: s.borderTopLeftRadius, background: s.backgroundColor, font: s.fontFamily, border: s.borderTopColor };
  }
  host.remove();
  const out = [];
  for (const c of document.querySelectorAll('header button, #toc button, main button, main input, main select, footer button')) {
    const r = c.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || c.closest('[hidden]')) continue;
    const s = getComputedStyle(c);
    const base = ua[c.tagName.toLowerCase()];
    const tokenRadius = getComputedStyle(document.documentElement).getPropertyValue('--lab-radius').trim();
    const named = c.matches('.lab-button, .lab-menu, .lab-input, .lab-link, .lab-range, .lab-check');
    const looksDefault =
      s.fontFamily === base.font || (s.borderTopLeftRadius === base.radius && s.backgroundColor === base.background && s.borderTopColor === base.border);
    // inside the language switch the group carries the rounded border
    const radiusOk = s.borderTopLeftRadius === tokenRadius || named || c.closest('.lang-switch, .export-buttons') !== null || s.borderTopLeftRadius !== base.radius;
    if (looksDefault || !radiusOk) {
      out.push(`${c.tagName.toLowerCase()}.${[...c.classList].join('.')} "${(c.textContent || c.getAttribute('aria-label') || '').trim().slice(0, 30)}" (radius ${s.borderTopLeftRadius}, background ${s.backgroundColor}, font ${s.fontFamily.slice(0, 20)})`);
    }
  }
  return out.slice(0, 8);
}

/** The contents at mid-page: its box, and which entry is marked against the section at the reading line. */
export function contentsAtMidPage() {
  const toc = document.getElementById('toc');
  const r = toc.getBoundingClientRect();
  const line = innerHeight * 0.4;
  // the section at the reading line, or, in the gap between two cards, the one above it
  const inView = [...document.querySelectorAll('main section.article-section')].filter((s) => s.getBoundingClientRect().top <= line).pop();
  const marked = [...toc.querySelectorAll('[aria-current="true"]')].map((b) => b.dataset.section);
  return { top: r.top, bottom: r.bottom, height: r.height, visible: getComputedStyle(toc).display !== 'none', inView: inView?.dataset.section ?? null, marked };
}

/**
 * Text of `section` that does not stand out from what it is drawn on: for every visible element
 * with its own text, the WCAG contrast ratio of its colour against the first opaque background
 * behind it (the element's or an ancestor's; the page's if none). Returns the lowest ones under
 * `min`, with the worst ratio seen. With `swatches` (a selector), the same for those elements'
 * own colour (a legend's line or box) instead of text.
 */
export function lowContrastOf([sectionId, min, swatches]) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  if (!card) return { worst: 0, low: [`no card for ${sectionId}`] };
  const probe = document.createElement('canvas').getContext('2d');
  /** [r, g, b, a] of any CSS colour (the canvas normalises oklab, color-mix…) */
  const rgba = (css) => {
    const m = /rgba?\(([^)]+)\)/.exec(css);
    if (m) {
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    }
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = css;
    probe.fillRect(0, 0, 1, 1);
    const d = probe.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const luminance = ([r, g, b]) => {
    const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const backgroundOf = (el) => {
    for (let p = el; p; p = p.parentElement) {
      const c = rgba(getComputedStyle(p).backgroundColor);
      if (c[3] >= 0.9) return c;
    }
    return rgba(getComputedStyle(document.body).backgroundColor);
  };
  const low = [];
  let worst = Infinity;
  // with `swatches`: those elements' own colour (a line's top border, a dashed line's border colour,
  // which its dash gradient paints: chart-legend.ts, or a box's fill) against what is behind them
  for (const el of card.querySelectorAll(swatches ?? '*')) {
    const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!swatches && (!own || el.closest('[hidden], [aria-hidden="true"]'))) continue;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (r.width === 0 || s.visibility === 'hidden' || Number(s.opacity) === 0 || (r.height === 0 && !swatches)) continue;
    const line = el.dataset.dash !== undefined || (s.borderTopStyle !== 'none' && parseFloat(s.borderTopWidth) > 0);
    const fg = rgba(swatches ? (line ? s.borderTopColor : s.backgroundColor) : s.color);
    const bg = backgroundOf(swatches ? el.parentElement : el);
    // a translucent text colour over its background
    const ink = fg.slice(0, 3).map((c, i) => c * fg[3] + bg[i] * (1 - fg[3]));
    const [hi, lo] = [luminance(ink), luminance(bg)].sort((a, b) => b - a);
    // a disabled control is meant to look faint
    const ratio = (hi + 0.05) / (lo + 0.05) * (el.closest(':disabled') ? 2 : 1);
    worst = Math.min(worst, ratio);
    if (ratio < min) low.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(swatches ? el.parentElement : el).textContent.trim().slice(0, 24)}" rgb(${fg.slice(0, 3).join(',')}) on rgb(${bg.slice(0, 3).join(',')}): ${ratio.toFixed(2)}`);
  }
  return { worst: Number(worst.toFixed(2)), low: low.slice(0, 6) };
}

/**
 * The chart canvases of `section` (Chart.js, outside the heatmaps) that are drawn and how much of
 * their ink is near-black: in dark mode text, ticks and lines must all be light (the light mode's
 * #0f172a ink has a luminance of 0.009, dark mode's grid lines 0.05 and more).
 */
export function darkChartInkOf(sectionId) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  const out = [];
  for (const canvas of card?.querySelectorAll('canvas') ?? []) {
    if (canvas.closest('figure.heatmap') || canvas.getClientRects().length === 0 || canvas.width === 0) continue;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let opaque = 0;
    let black = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] < 200) continue;
      opaque++;
      const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      if (0.2126 * lin(data[i]) + 0.7152 * lin(data[i + 1]) + 0.0722 * lin(data[i + 2]) < 0.03) black++;
    }
    out.push({ label: canvas.getAttribute('aria-label'), opaque, black });
  }
  return out;
}

/**
 * Pixels of each heatmap in `section` painted in the light scheme's label inks (--lab-ink-soft
 * #334155, --lab-muted #475569): none once the page is dark, if its heatmaps repainted when the
 * scheme changed. Glyph strokes are painted in the exact ink (the cells' colours are a ramp's).
 */
export function lightInkOnHeatmapsOf(sectionId) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  const inks = ['51,65,85', '71,85,105'];
  const out = [];
  for (const canvas of card?.querySelectorAll('figure.heatmap canvas') ?? []) {
    if (canvas.getClientRects().length === 0 || canvas.width === 0) continue;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let light = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] >= 250 && inks.includes(`${data[i]},${data[i + 1]},${data[i + 2]}`)) light++;
    out.push({ label: canvas.getAttribute('aria-label')?.slice(0, 60), light });
  }
  return out;
}

/**
 * Boxes of `section` that cut their content at the side: a box that clips or scrolls (a text box,
 * a figure, a row of buttons) whose content is wider than it. A heatmap's frame is left to
 * hiddenColumnsOf (it says how many columns it hides); visually hidden text is meant to be clipped;
 * `scrolling` (a selector) names the boxes that scroll sideways by design.
 */
export function clippedOf([sectionId, scrolling]) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  if (!card) return [`no card for ${sectionId}`];
  const out = [];
  for (const el of card.querySelectorAll('*')) {
    if (el.closest('figure.heatmap, [hidden], details:not([open]) > :not(summary)') || el.getClientRects().length === 0) continue;
    if (scrolling && el.matches(scrolling)) continue;
    // visually hidden (a skip link, a screen-reader table): one pixel wide on purpose
    if (el.clientWidth <= 1) continue;
    const s = getComputedStyle(el);
    const field = el.matches('input[type=text], input:not([type]), textarea');
    if (!field && s.overflowX === 'visible') continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      const name = `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')}`;
      out.push(`${name}: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
    }
  }
  return out.slice(0, 5);
}

/**
 * Panel titles (summary) of `section` whose words are laid out as separate boxes (a term marked in
 * the title made a flex item of its own: the title broke into ragged columns): all the text of a
 * title must flow in one box.
 */
export function raggedTitlesOf(sectionId) {
  const card = document.querySelector(`section.article-section[data-section="${sectionId}"]`);
  const out = [];
  for (const summary of card?.querySelectorAll('summary') ?? []) {
    if (summary.getClientRects().length === 0) continue;
    const boxes = new Set();
    const walker = document.createTreeWalker(summary, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim()) continue;
      let box = node.parentElement;
      while (box !== summary && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
      boxes.add(box);
    }
    if (boxes.size > 1) out.push(`"${summary.textContent.trim().slice(0, 40)}": ${boxes.size} boxes`);
  }
  return out;
}

/**
 * Every labelled control in the article, focused as Tab focuses it when it sits just under the
 * sticky contents bar (its top 5 px into the viewport, where the bar covers it and its label):
 * the focus must scroll it so that its label is below the bar. Textareas are left out of that
 * placing: focus reveals their caret, not their box. Returns the fields whose label stayed under
 * the bar, and how many were checked (a disabled control cannot take focus).
 */
export function labelsUnderStickyBar() {
  const bar = document.getElementById('toc');
  const out = { covered: [], checked: [] };
  for (const control of document.querySelectorAll('#article .al-field > :is(input, select)')) {
    if (!control.getClientRects().length || control.disabled || control.closest('[hidden]')) continue;
    const label = control.parentElement.querySelector('.al-field-label');
    document.activeElement?.blur();
    scrollBy({ top: control.getBoundingClientRect().top - 5, behavior: 'instant' });
    control.focus();
    const name = control.dataset.testid ?? label.textContent;
    out.checked.push(name);
    const under = bar.getBoundingClientRect().bottom - label.getBoundingClientRect().top;
    if (under > 0.5) out.covered.push(`${name}: its label ${Math.round(under)} px under the bar`);
  }
  return out;
}
