// What the side-by-side measurement scripts share (scripts/alignment.mjs,
// scripts/transformer-zh-en.mjs): models trained interleaved in blocks, so that every one sees
// the same machine load, each evaluated after every block, and the rows printed as one Markdown
// table.

export const pct = (x) => (x == null ? '—' : `${(100 * x).toFixed(1)}%`);

// Trains every model of `models` ({name, model}) `steps` steps, `every` at a time in turn, timing
// each (m.seconds); after each block, `row(m, done, evaluation)` gives the model's table row.
// Leaves each model's last evaluation in m.final; returns the rows.
export function trainSideBySide(models, steps, every, row) {
  const rows = [];
  for (const m of models) m.seconds = 0;
  for (let done = 0; done < steps; ) {
    const chunk = Math.min(every, steps - done);
    for (const m of models) {
      const t0 = performance.now();
      m.model.train(chunk);
      m.seconds += (performance.now() - t0) / 1000;
    }
    done += chunk;
    for (const m of models) {
      m.final = m.model.evaluate();
      rows.push(row(m, done, m.final));
    }
  }
  return rows;
}

// `rows` under `header` as a Markdown table, each column as wide as its widest cell.
export function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
