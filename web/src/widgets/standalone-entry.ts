// The script of a standalone page (embed/standalone.ts): every widget element, with everything it
// loads inlined (one classic script, no module to fetch), its worker inlined too
// (standalone-client.ts). Built once per wasm build by `vite build --mode kit-standalone-<build>`.
import './attention-lab-widgets';
