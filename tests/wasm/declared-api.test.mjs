// The types tell the truth: the package is packed (npm pack) and installed into a temporary folder
// as a user installs it; tests/types/declared-api.ts, which calls every method and option that the
// package declares (build/types, after `npm run build:types`), is type-checked against that install
// with tsc, compiled, and run. A declared signature that throws, or a result of another shape, fails
// here; so does a method added to the declarations and not called by declared-api.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// Member names (methods, properties and getters at depth 1) of `interface Name … {` in a
// hand-declared shape (wasm/js/types/*.d.ts), or of `declare class Name … {` in the declarations
// generated from the JSDoc (build/types/*.d.mts) together with those of the class it extends.
function membersOf(file, name) {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const start = text.search(new RegExp(`export (?:interface|declare class) ${name}\\b`));
  assert.ok(start >= 0, `${name} in ${file}`);
  const names = [];
  let depth = 0;
  for (const line of text.slice(text.indexOf('{', start) + 1).split('\n')) {
    if (depth === 0) {
      const m = line.match(/^\s+(?:readonly\s+|get\s+)?(\w+)\??\s*[:(<]/);
      if (m) names.push(m[1]);
      if (/^}/.test(line)) break;
    }
    depth += (line.match(/[{(]/g) ?? []).length - (line.match(/[})]/g) ?? []).length;
  }
  const base = text.slice(start, text.indexOf('{', start)).match(/^export declare class \w+(?:<.*?>)? extends (\w+)/);
  if (base) {
    const declaring = readdirSync(join(ROOT, 'build/types')).filter((f) => f.endsWith('.d.mts'))
      .find((f) => readFileSync(join(ROOT, 'build/types', f), 'utf8').includes(`export declare class ${base[1]}`));
    assert.ok(declaring, `${base[1]}, which ${name} extends, in build/types`);
    names.push(...membersOf(join('build/types', declaring), base[1]));
  }
  return names;
}

test('declared-api.ts calls every method the .d.ts files declare', () => {
  const calls = readFileSync(SOURCE, 'utf8');
  const shapes = 'wasm/js/types', generated = 'build/types';
  const interfaces = [[`${shapes}/attention-lab.d.ts`, 'AttentionOnlyLab'], [`${shapes}/attention-lab.d.ts`, 'AttentionLab'],
    [`${shapes}/attention-lab.d.ts`, 'Ops'], [`${generated}/seq2seq.d.mts`, 'Seq2Seq'], [`${shapes}/seq2seq.d.ts`, 'TransformerSeq2Seq'],
    [`${generated}/safetensors.d.mts`, 'ImportedSeq2Seq'], [`${generated}/seq2seq-model.d.mts`, 'Seq2SeqModel'],
    [`${shapes}/attention-lab.d.ts`, 'GptOnlyLab'], [`${generated}/gpt.d.mts`, 'GptSession']];
  const missing = [];
  for (const [file, name] of interfaces) {
    const members = membersOf(file, name);
    assert.ok(members.length > 0, `${name} has members`);
    for (const member of members) if (!new RegExp(`\\.${member}\\b`).test(calls)) missing.push(`${name}.${member}`);
  }
  assert.deepEqual(missing, []);
});
