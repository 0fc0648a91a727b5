// Runs inside the generated module before it loads its .wasm. The build targets web and worker
// only (so Vite and browsers get a clean ES module); under Node, fetch() cannot read a file:// URL,
// so hand the module the bytes of the .wasm that sits next to it (TOOLCHAIN.md §5, §11).
if (typeof process === 'object' && process.versions && process.versions.node && !Module['wasmBinary']) {
  const fs = process.getBuiltinModule ? process.getBuiltinModule('fs') : null;
  const url = new URL('attention_lab_core.wasm', _scriptDir);
  if (fs) Module['wasmBinary'] = fs.readFileSync(url);
}
