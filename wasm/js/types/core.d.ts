// The embind module instance that build/wasm/<file>.mjs resolves to. Its functions are C++
// (wasm/bindings/*.cpp) taking and returning plain JS objects, and emcc emits no declarations for
// them, so tsc cannot see across that boundary: the wrappers name the type of each result where they
// return it (the shapes declared beside this file), and tests/wasm/types.test.mjs checks those
// shapes against what the bindings return.
export interface Core {
  readonly HEAP8: Int8Array;
  readonly HEAPF32: Float32Array;
  readonly HEAPU32: Uint32Array;
  readonly [name: string]: any;
}

/** The default export of build/wasm/<file>.mjs: instantiates the module. */
export type CoreFactory = () => Promise<Core>;
