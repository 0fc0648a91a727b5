#!/usr/bin/env node
// The `attention-lab` command (docs/cli.md): train, translate with, evaluate and inspect Seq2Seq
// models on the same wasm core as the library. The work is done in wasm/js/cli/.
import { main } from '../wasm/js/cli/main.mjs';

process.exitCode = await main(process.argv.slice(2));
