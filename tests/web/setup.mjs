// Loads the web app's TypeScript modules in Node through Vite's SSR module loader (the same
// transforms as the build, `?inline` CSS included; nothing to compile first). One Vite server per
// test file, closed when the file's tests are done.
//   const { AppState } = await loadWeb('state');         // web/src/state.ts
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const configFile = fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url));
let server = null;

after(async () => {
  const s = await server;
  await s?.close();
});

/** The module web/src/<name>.ts (e.g. 'state', 'worker/client'). */
export async function loadWeb(name) {
  server ??= createServer({
    configFile,
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: 'custom',
  });
  return (await server).ssrLoadModule(`/src/${name}.ts`);
}
