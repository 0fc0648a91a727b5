// The app state: one typed table of every setting (state-table.ts), read from and written to the URL
// hash (#seed=3&dot_d=8) or, for widgets, element attributes. A state is a permalink: the same hash
// reloads to the same numbers. Pattern: tensorflow/playground's state.ts.
//
// Any setting `x` also has a hide switch `x_hide=1` that hides its control (for embedding), and
// `controls_hide=1` hides every control. Values are parsed strictly against the table; invalid or
// unknown entries are ignored and reported by name, never echoed as markup. Names with an old prefix
// (state-table.ts, OLD_PREFIXES) read as their slug's.
import { OLD_PREFIXES, PROPS, type PropDef } from './state-table';

type Def = (typeof PROPS)[number];
export type PropName = Def['name'];
type DefOf<N extends PropName> = Extract<Def, { name: N }>;
type ValueOfDef<D> = D extends { kind: 'int' | 'number' }
  ? number
  : D extends { kind: 'bool' }
    ? boolean
    : D extends { kind: 'text' }
      ? string
      : D extends { kind: 'numbers' }
        ? readonly number[]
        : D extends { kind: 'enum'; values: readonly (infer V)[] }
          ? V
          : never;
export type PropValue<N extends PropName> = ValueOfDef<DefOf<N>>;
export type StateValues = { [N in PropName]: PropValue<N> };

/** A setting that was present but invalid: its table name (never user text) and why. */
export interface Rejected {
  name: PropName;
  reason: string;
}

export interface ParseResult {
  state: AppState;
  rejected: Rejected[];
  /** keys that are not in the table; user text, so render only with textContent */
  unknown: string[];
}

const BY_NAME: ReadonlyMap<string, PropDef> = new Map(PROPS.map((p) => [p.name, p as PropDef]));

/** The name a hash key or attribute stands for: itself, or with an old prefix its slug's name. */
export function currentName(key: string): string {
  const cut = key.indexOf('_');
  const slug = OLD_PREFIXES.get(key.slice(0, cut + 1));
  return slug === undefined ? key : slug + key.slice(cut);
}

/** Every old spelling of a setting (OLD_PREFIXES), for whatever must recognise them as attributes. */
/** Whether `key` names a setting (by its name or an old one). */
export function isSettingName(key: string): boolean {
  return BY_NAME.has(currentName(key));
}

export const OLD_NAMES: readonly string[] = PROPS.flatMap((p) =>
  [...OLD_PREFIXES].filter(([, slug]) => p.name.startsWith(`${slug}_`)).map(([old, slug]) => old + p.name.slice(slug.length + 1)),
);

/** The state table's entry for `name`, typed by its kind: its default, limits or length need no cast. */
export function propDef<N extends PropName>(name: N): DefOf<N> {
  return BY_NAME.get(name) as DefOf<N>;
}

/** The settings that hold a number (or numbers) between limits. */
export type RangedName = Extract<Def, { kind: 'int' | 'number' | 'numbers' }>['name'];

/** A number setting's limits, and whether its values are whole. */
export function limits(name: RangedName): { min: number; max: number; integer: boolean } {
  const def = propDef(name);
  return { min: def.min, max: def.max, integer: def.kind === 'int' };
}
const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?$/;
const INT_RE = /^[+-]?\d{1,16}$/;
/** Longest raw value read for any setting: longer values are rejected before parsing. */
export const MAX_RAW_LENGTH = 2000;

/** Parses one raw string for a setting; throws RangeError naming the problem. */
export function parseValue(def: PropDef, raw: string): unknown {
  if (raw.length > MAX_RAW_LENGTH) throw new RangeError(`${def.name}: value longer than ${MAX_RAW_LENGTH} characters`);
  const text = raw.trim();
  switch (def.kind) {
    case 'int': {
      if (!INT_RE.test(text)) throw new RangeError(`${def.name}: not a whole number`);
      return checkRange(def, Number(text));
    }
    case 'number': {
      if (!NUMBER_RE.test(text)) throw new RangeError(`${def.name}: not a number`);
      return checkRange(def, Number(text));
    }
    case 'bool': {
      if (text === '1' || text === 'true' || text === '') return true;
      if (text === '0' || text === 'false') return false;
      throw new RangeError(`${def.name}: expected 1/0 or true/false`);
    }
    case 'enum': {
      if (!(def.values as readonly string[]).includes(text)) {
        throw new RangeError(`${def.name}: expected one of ${def.values.join(', ')}`);
      }
      return text;
    }
    case 'text': {
      const chars = [...text];
      if (chars.length > def.maxLength) throw new RangeError(`${def.name}: longer than ${def.maxLength} characters`);
      // Control characters have no business in a sentence; reject rather than strip silently.
      if (/[\u0000-\u001f\u007f]/.test(text)) throw new RangeError(`${def.name}: contains control characters`);
      return text;
    }
    case 'numbers': {
      if (text === '') return [];
      const parts = text.split(',');
      if (parts.length > def.maxLength) throw new RangeError(`${def.name}: more than ${def.maxLength} values`);
      return parts.map((p, i) => {
        const s = p.trim();
        if (!NUMBER_RE.test(s)) throw new RangeError(`${def.name}: value ${i + 1} is not a number`);
        const v = Number(s);
        if (!Number.isFinite(v) || v < def.min || v > def.max) {
          throw new RangeError(`${def.name}: value ${i + 1} is outside ${def.min} … ${def.max}`);
        }
        return v;
      });
    }
  }
}

function checkRange(def: PropDef & { min: number; max: number }, v: number): number {
  if (!Number.isFinite(v) || v < def.min || v > def.max) {
    throw new RangeError(`${def.name}: outside ${def.min} … ${def.max}`);
  }
  return v;
}

/** The string form of a value, as it appears in the hash or an attribute. */
export function formatValue(def: PropDef, value: unknown): string {
  switch (def.kind) {
    case 'bool':
      return value ? '1' : '0';
    case 'numbers':
      return (value as readonly number[]).map((v) => String(v)).join(',');
    default:
      return String(value);
  }
}

function defaults(): StateValues {
  const values: Record<string, unknown> = {};
  for (const p of PROPS) values[p.name] = p.kind === 'numbers' ? [...p.default] : p.default;
  return values as StateValues;
}

type Listener = (changed: readonly PropName[]) => void;

export class AppState {
  #values: StateValues = defaults();
  #hidden = new Set<string>();
  #listeners = new Set<Listener>();

  /** Reads a state from a location hash ('#a=1&b=2' or 'a=1&b=2'). */
  static fromHash(hash: string): ParseResult {
    let params: URLSearchParams;
    try {
      params = new URLSearchParams(hash.replace(/^#/, ''));
    } catch {
      params = new URLSearchParams();
    }
    return AppState.fromEntries(params.entries());
  }

  /** Reads a state from element attributes (a widget is just an app state). */
  static fromAttributes(element: Element): ParseResult {
    return AppState.fromEntries(Array.from(element.attributes, (a) => [a.name, a.value] as [string, string]));
  }

  static fromEntries(entries: Iterable<[string, string]>): ParseResult {
    const state = new AppState();
    const rejected: Rejected[] = [];
    const unknown: string[] = [];
    const list = [...entries];
    const given = new Set(list.map(([key]) => key));
    for (const [name, raw] of list) {
      const key = currentName(name);
      if (key !== name && given.has(key)) continue; // the slug's spelling wins
      const def = BY_NAME.get(key);
      if (def) {
        try {
          (state.#values as Record<string, unknown>)[def.name] = parseValue(def, raw);
        } catch (err) {
          rejected.push({ name: def.name as PropName, reason: (err as Error).message });
        }
      } else if (key.endsWith('_hide') && (key === 'controls_hide' || BY_NAME.has(key.slice(0, -5)))) {
        if (raw !== '0' && raw !== 'false') state.#hidden.add(key.slice(0, -5));
      } else {
        unknown.push(name.slice(0, 64));
      }
    }
    return { state, rejected, unknown };
  }

  get<N extends PropName>(name: N): PropValue<N> {
    return this.#values[name];
  }

  /** Sets a validated value (throws RangeError for a value outside the table's rules). */
  set<N extends PropName>(name: N, value: PropValue<N>): void {
    this.update({ [name]: value } as Partial<StateValues>);
  }

  /** Sets several values at once and notifies listeners once; returns the names that changed (none: nobody was notified). */
  update(values: Partial<StateValues>): readonly PropName[] {
    // Validate everything first: a bad value leaves the state untouched (no half-applied update).
    const checked: [PropDef, unknown][] = [];
    for (const [name, value] of Object.entries(values)) {
      const def = BY_NAME.get(name);
      if (!def) throw new RangeError(`unknown setting ${name.slice(0, 64)}`);
      if (value === undefined) continue;
      // Round-trip through the string form: the one validator for hash, attributes and code.
      checked.push([def, parseValue(def, formatValue(def, value))]);
    }
    const changed: PropName[] = [];
    for (const [def, value] of checked) {
      if (formatValue(def, value) !== formatValue(def, this.#values[def.name as PropName])) {
        (this.#values as Record<string, unknown>)[def.name] = value;
        changed.push(def.name as PropName);
      }
    }
    if (!changed.length) return changed;
    // A listener may unsubscribe others (a section destroyed by a language switch): skip those.
    for (const fn of [...this.#listeners]) if (this.#listeners.has(fn)) fn(changed);
    return changed;
  }

  /** Copies every value (and hide switch) from another state, notifying for what changed. */
  assign(other: AppState): void {
    this.#hidden = new Set(other.#hidden);
    this.update(other.values());
  }

  /** The hide switches that are on (setting names, or 'controls'), sorted. */
  hidden(): string[] {
    return [...this.#hidden].sort();
  }

  values(): StateValues {
    return { ...this.#values };
  }

  /** True when the control of `name` (a setting, or 'controls' for all) is hidden. */
  isHidden(name: PropName | 'controls'): boolean {
    return this.#hidden.has('controls') || this.#hidden.has(name);
  }

  /** Calls `fn` with the names of the settings that changed; returns the unsubscribe function. */
  subscribe(fn: Listener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** The settings that differ from their defaults, plus the seed always, in table order. */
  entries(): [string, string][] {
    const out: [string, string][] = [];
    for (const p of PROPS) {
      const def = p as PropDef;
      const v = formatValue(def, this.#values[p.name]);
      if (p.name === 'seed' || v !== formatValue(def, p.default)) out.push([p.name, v]);
    }
    for (const h of this.#hidden) out.push([`${h}_hide`, '1']);
    return out;
  }

  toHash(): string {
    return `#${new URLSearchParams(this.entries())}`;
  }
}
