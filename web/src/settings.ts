// Page settings and their URL-hash form (#seed=3&score=scaled&n=3&m=5&d=4). Every value read from
// the hash is validated against a whitelist/pattern; anything else is ignored (never echoed).
import { MAX_SEED } from './random';

export type PageScore = 'dot' | 'scaled';
export const SCORES: readonly PageScore[] = ['dot', 'scaled'];
export const MIN_SIZE = 1;
export const MAX_SIZE = 8;

export interface Settings {
  seed: number;
  score: PageScore;
  /** number of queries */
  n: number;
  /** number of keys (= values) */
  m: number;
  /** feature size */
  d: number;
}

/** The note's §3.1/§3.2 shapes: x1 (3, 4) queries, x2 (5, 4) keys = values. */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({ seed: 1, score: 'scaled', n: 3, m: 5, d: 4 });

export function parseSeed(text: string): number | null {
  const s = text.trim();
  if (!/^\d{1,10}$/.test(s)) return null;
  const v = Number(s);
  return v <= MAX_SEED ? v : null;
}

export function parseSize(text: string): number | null {
  if (!/^\d{1,2}$/.test(text.trim())) return null;
  const v = Number(text);
  return v >= MIN_SIZE && v <= MAX_SIZE ? v : null;
}

export function parseScore(text: string): PageScore | null {
  return (SCORES as readonly string[]).includes(text) ? (text as PageScore) : null;
}

export interface ParsedHash {
  settings: Settings;
  /** names (from the fixed list above, never user text) of settings that were present but invalid */
  rejected: (keyof Settings)[];
}

/** Reads settings from a location hash; invalid or unknown entries are ignored. */
export function parseHash(hash: string, base: Readonly<Settings> = DEFAULT_SETTINGS): ParsedHash {
  const settings: Settings = { ...base };
  const rejected: (keyof Settings)[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return { settings, rejected };
  }
  const read = <K extends keyof Settings>(key: K, parse: (t: string) => Settings[K] | null) => {
    const raw = params.get(key);
    if (raw === null) return;
    const v = parse(raw);
    if (v === null) rejected.push(key);
    else settings[key] = v;
  };
  read('seed', parseSeed);
  read('score', parseScore);
  read('n', parseSize);
  read('m', parseSize);
  read('d', parseSize);
  return { settings, rejected };
}

export function toHash(s: Readonly<Settings>): string {
  const p = new URLSearchParams({
    seed: String(s.seed),
    score: s.score,
    n: String(s.n),
    m: String(s.m),
    d: String(s.d),
  });
  return `#${p}`;
}
