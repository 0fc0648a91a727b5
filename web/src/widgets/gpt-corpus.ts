// Where <gpt-demo> and the iframe page fetch §5's corpus: the poems file beside the code that loads
// it, not beside the host's page. The kit and the site both keep it at poems/tang300.txt next to
// their assets/ folder (web/vite.config.ts), and this module is always in assets/ (a chunk of the
// lab-core group, never an entry), so the file is one folder up from it wherever the kit is copied
// and whichever origin serves it. It is fetched when the widget first comes into view, never with
// the page. (The article's own §5 fetches the site's copy: sections/gpt-run.ts.)

/** The corpus, relative to the site's or the kit's folder (web/vite.config.ts writes it there). */
export const CORPUS_FILE = 'poems/tang300.txt';
/**
 * The same file relative to this module (a plain string in a variable: Vite rewrites only a literal
 * in `new URL(…, import.meta.url)`, and this one is for the browser to resolve).
 */
const FROM_ASSETS = '../poems/tang300.txt';

export function kitCorpusUrl(): URL {
  return new URL(FROM_ASSETS, import.meta.url);
}

export async function fetchKitCorpus(): Promise<string> {
  const url = kitCorpusUrl();
  let response: Response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new Error(`the poems (${CORPUS_FILE}) could not be fetched from ${url.origin}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!response.ok) throw new Error(`${CORPUS_FILE}: HTTP ${response.status} from ${url.origin} (is the kit's poems folder copied with it?)`);
  return response.text();
}
