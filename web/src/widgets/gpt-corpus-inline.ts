// gpt-corpus.ts in §5's standalone script (web/vite.config.ts, kit-standalone-gpt): a page opened
// from disk cannot fetch, so the poems are inlined in the script and "fetched" from there.
import poems from '../../../build/poems/tang300.txt?raw';

export { CORPUS_FILE } from './gpt-corpus';

export function fetchKitCorpus(): Promise<string> {
  return Promise.resolve(poems);
}
