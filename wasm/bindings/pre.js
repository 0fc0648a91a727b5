// Runs inside the generated module before it loads its .wasm. The build targets web and worker
// only (so Vite and browsers get a clean ES module); under Node, fetch() cannot read a file:// URL,
// so hand the module the bytes of the .wasm that sits next to it (docs/build.md, link settings).
// CMake fills in @LAB_WASM_FILE@ per module (attention_lab_core.wasm, attention_lab_attention.wasm, …).
if (typeof process === 'object' && process.versions && process.versions.node && !Module['wasmBinary']) {
  const fs = process.getBuiltinModule ? process.getBuiltinModule('fs') : null;
  const url = new URL('@LAB_WASM_FILE@', _scriptDir);
  if (fs) Module['wasmBinary'] = fs.readFileSync(url);
}
