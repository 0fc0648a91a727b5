// Regenerates the examples of docs/cli.md from the real commands, so that they cannot drift: every
// block that follows a line `<!-- cli: ARGS -->` is replaced by `$ attention-lab ARGS` and what the
// command prints (stdout, then stderr), run in a scratch folder holding the files the examples use
// (SETUP). Timings vary from run to run and machine to machine: they are shown as `…`.
//   node scripts/cli-docs.mjs           rewrite docs/cli.md
//   node scripts/cli-docs.mjs --check   exit 1 if docs/cli.md differs (tests/cli/docs.test.mjs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOTE_PAIRS } from '../tests/wasm/case-runner.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOC = join(ROOT, 'docs/cli.md');
const BIN = join(ROOT, 'bin/attention-lab.mjs');

const NOTE = NOTE_PAIRS;

/** The files the examples read, and the model they share (note.model, the note's recipe at hidden 32). */
function setup(dir) {
  writeFileSync(join(dir, 'sentences.txt'), `${NOTE.map(([s]) => s).join('\n')}\n咖哥 喜欢 大冰\n`);
  writeFileSync(join(dir, 'test.tsv'), `# source<TAB>reference\n${NOTE.map(([s, t], i) => `${s}\t${i === 4 ? 'Neural-Nets are simple' : t}`).join('\n')}\n`);
  writeFileSync(join(dir, 'data.tsv'), `${NOTE.map((p) => p.join('\t')).join('\n')}\n`);
  // Twelve copies of one short (public-domain) poem under different titles, for the GPT's examples.
  writeFileSync(join(dir, 'poems.txt'), `${Array.from({ length: 12 }, (_, i) => `《题${i}》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。`).join('\n\n')}\n`);
  const r = spawnSync(process.execPath, [BIN, 'train', '--task', 'note', '--hidden', '32', '--steps', '300', '--progress', 'none', '--out', 'note.model'],
    { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`setup: ${r.stderr}`);
}

/** Shell-like words: "double quoted" or bare. */
const words = (args) => [...args.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

const untimed = (text) => text
  .replace(/\d[\d,]* ex\/s {2}\d+\.\d steps\/s/g, '… ex/s  … steps/s')
  .replace(/ETA \S+/g, 'ETA …')
  .replace(/\d+\.\d steps\/s/g, '… steps/s')
  .replace(/trained in \S+ \(total \S+\)/g, 'trained in … (total …)')
  .replace(/"(trainSeconds|totalSeconds|stepsPerSecond|etaSeconds)":[\d.]+/g, '"$1":…');

function run(dir, args) {
  const r = spawnSync(process.execPath, [BIN, ...words(args)], { cwd: dir, encoding: 'utf8', env: { ...process.env, COLUMNS: '100' } });
  return `$ attention-lab ${args}\n${untimed(r.stdout + r.stderr)}`.trimEnd();
}

export function generate() {
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-docs-'));
  try {
    setup(dir);
    const doc = readFileSync(DOC, 'utf8');
    return doc.replace(/(<!-- cli: (.+?) -->\n)```text\n[\s\S]*?```/g, (_m, marker, args) => `${marker}\`\`\`text\n${run(dir, args)}\n\`\`\``);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fresh = generate();
  if (process.argv.includes('--check')) {
    if (fresh !== readFileSync(DOC, 'utf8')) {
      process.stderr.write('docs/cli.md differs from what the commands print: run node scripts/cli-docs.mjs\n');
      process.exit(1);
    }
  } else {
    writeFileSync(DOC, fresh);
  }
}
