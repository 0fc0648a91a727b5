// The web app and its unit tests type-check: Vite compiles TypeScript without checking it, and the
// unit tests load it through Vite's SSR loader, which does not check it either.
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

const TSC = new URL('../../node_modules/.bin/tsc', import.meta.url).pathname;

for (const project of ['web/tsconfig.json', 'tests/web/tsconfig.json']) {
  test(`tsc -p ${project} finds no error`, () => {
    const path = new URL(`../../${project}`, import.meta.url).pathname;
    try {
      execFileSync(TSC, ['-p', path, '--noEmit'], { encoding: 'utf8' });
    } catch (err) {
      throw new Error(`tsc -p ${project}:\n${err.stdout || err.message}`); // tsc reports on stdout
    }
  });
}
