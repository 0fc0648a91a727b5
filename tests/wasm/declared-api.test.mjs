// The types tell the truth: the package is packed (npm pack) and installed into a temporary folder
// as a user installs it; tests/types/declared-api.ts, which calls every method and option that
// shared/types/*.d.ts declares, is type-checked against that install with tsc, compiled, and run.
// A declared signature that throws, or a result of another shape, fails here; so does a method
// added to the .d.ts and not called by declared-api.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const SOURCE = join(ROOT, 'tests/types/declared-api.ts');
let dir;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'attention-lab-pack-'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }));
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], { cwd: app, stdio: 'pipe' });
  copyFileSync(SOURCE, join(app, 'declared-api.ts'));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: false, types: [], outDir: 'out' },
    files: ['declared-api.ts'],
  }));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the packed package: declared-api.ts type-checks against its .d.ts and every declared call works', () => {
  const app = join(dir, 'app');
  execFileSync(TSC, ['-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' }); // throws with tsc's errors
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('./out/declared-api.js'); process.stdout.write(await m.main());"],
    { cwd: app, encoding: 'utf8' });
  assert.equal(out, 'ok');
});

// Member names of `interface Name … {` in a .d.ts (methods, properties and getters at depth 1).
function membersOf(file, name) {
  const text = readFileSync(join(ROOT, 'shared/types', file), 'utf8');
  const start = text.search(new RegExp(`export interface ${name}\\b`));
  assert.ok(start >= 0, `${name} in ${file}`);
  const names = [];
  let depth = 0;
  for (const line of text.slice(text.indexOf('{', start) + 1).split('\n')) {
    if (depth === 0) {
      const m = line.match(/^\s{2}(?:readonly\s+)?(\w+)\??\s*[:(<]/);
      if (m) names.push(m[1]);
      if (/^}/.test(line)) break;
    }
    depth += (line.match(/[{(]/g) ?? []).length - (line.match(/[})]/g) ?? []).length;
  }
  return names;
}

test('declared-api.ts calls every method the .d.ts files declare', () => {
  const calls = readFileSync(SOURCE, 'utf8');
  const interfaces = [['attention-lab.d.ts', 'AttentionOnlyLab'], ['attention-lab.d.ts', 'AttentionLab'], ['attention-lab.d.ts', 'Ops'],
    ['seq2seq.d.ts', 'Seq2Seq'], ['seq2seq.d.ts', 'TransformerSeq2Seq'], ['seq2seq.d.ts', 'ImportedSeq2Seq'], ['seq2seq-model.d.ts', 'Seq2SeqModel'],
    ['attention-lab.d.ts', 'GptOnlyLab'], ['gpt.d.ts', 'GptSession']];
  const missing = [];
  for (const [file, name] of interfaces) {
    const members = membersOf(file, name);
    assert.ok(members.length > 0, `${name} has members`);
    for (const member of members) if (!new RegExp(`\\.${member}\\b`).test(calls)) missing.push(`${name}.${member}`);
  }
  assert.deepEqual(missing, []);
});
