#!/usr/bin/env node
// The GPT's corpus: the Tang poems (唐诗三百首, file `tang300`) and optionally the Song poems
// (file `song100`) that Debian's fortunes-zh package installs in the fortune data folder,
// extracted at build time into build/poems/ (the repository carries this loader, not the poems).
//
//   node scripts/poems.mjs [--song] [--from DIR] [--out DIR]
//
// A fortune file is entries separated by lines holding only `%` (and maybe spaces). An entry here is a title line
// (《…》, in song100 after `题目:`), an author line (`作者：` or `作者:`) and the poem's lines;
// the title and author lines are wrapped in ANSI colour codes (ESC [ 32 m … ESC [ m), which are
// stripped. Writes, per file, <name>.json ([{title, author, lines}]) and <name>.txt: the
// poems as the model reads them, each `title\nauthor\nline\n…`, separated by a blank line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FORTUNE_DIR = '/usr/share/games/fortunes';

// ESC [ params m: the colour codes of the fortune files.
const COLOUR = /\x1b\[[0-9;]*m/g;

function stripPrefix(line, prefixes) {
  for (const p of prefixes) if (line.startsWith(p)) return line.slice(p.length).trim();
  return null;
}

/**
 * Parses a fortune file's text into poems. Throws an Error naming the entry (1-based) and what
 * is missing when an entry has no title or author line.
 * @param {string} text
 * @param {string} name the file's name, for messages
 * @returns {{title: string, author: string, lines: string[]}[]}
 */
export function parseFortunePoems(text, name) {
  const entries = text.replace(COLOUR, '').replace(/\r\n?/g, '\n').split(/^[ \t]*%[ \t]*$/m);
  const poems = [];
  entries.forEach((entry, i) => {
    const lines = entry.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    if (lines.length === 0) return; // after the last %
    const where = `${name}: entry ${i + 1}`;
    const title = stripPrefix(lines[0], ['题目:', '题目：']) ?? lines[0];
    if (!title.startsWith('《')) throw new Error(`${where}: the first line is not a title 《…》: ${lines[0]}`);
    const author = lines.length > 1 ? stripPrefix(lines[1], ['作者：', '作者:']) : null;
    if (author === null) throw new Error(`${where}: the second line is not an author line (作者：…)`);
    if (lines.length < 3) throw new Error(`${where}: a title and an author but no poem`);
    poems.push({ title, author, lines: lines.slice(2) });
  });
  if (poems.length === 0) throw new Error(`${name}: no poems`);
  return poems;
}

/** The training text of poems: `title\nauthor\nline…`, poems separated by a blank line. */
export function poemsText(poems) {
  return poems.map((p) => [p.title, p.author, ...p.lines].join('\n')).join('\n\n') + '\n';
}

function main(argv) {
  let from = FORTUNE_DIR;
  let out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'poems');
  const names = ['tang300'];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--song') names.push('song100');
    else if (a === '--from' && i + 1 < argv.length) from = argv[++i];
    else if (a === '--out' && i + 1 < argv.length) out = argv[++i];
    else throw new Error(`poems.mjs: unknown argument ${a} (usage: node scripts/poems.mjs [--song] [--from DIR] [--out DIR])`);
  }
  fs.mkdirSync(out, { recursive: true });
  for (const name of names) {
    const file = path.join(from, name);
    if (!fs.existsSync(file)) {
      throw new Error(`poems.mjs: ${file} is missing: install Debian's fortunes-zh (bash scripts/ensure-deps.sh)`);
    }
    const poems = parseFortunePoems(fs.readFileSync(file, 'utf8'), name);
    const text = poemsText(poems);
    fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify(poems));
    fs.writeFileSync(path.join(out, `${name}.txt`), text);
    console.log(`poems: ${name}: ${poems.length} poems, ${[...text].length} characters -> ${path.relative(process.cwd(), out)}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
