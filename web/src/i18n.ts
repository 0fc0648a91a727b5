// Two languages, Chinese (the note's own) and English. Each section carries its own strings; the
// strings every section and widget shares are below (the article page's own, its header, contents,
// notices and embed dialog: shell/page-strings.ts, which widgets never download). A missing key falls back to English, then to the key itself
// (so a gap shows up as a visible key, not as an empty label).
export type Lang = 'en' | 'zh';
export type Strings = Record<Lang, Record<string, string>>;

export const SHELL_STRINGS: Strings = {
  en: {
    'export.png': 'PNG',
    'export.csv': 'CSV',
    'export.json': 'JSON',
    'worker.crashed': 'The computation worker stopped. Models in it were lost.',
    'worker.restart': 'Restart',
    'error.prefix': 'Error: ',
    'loading': 'Loading…',
    'export.png.title': 'Download the picture (PNG)',
    'export.csv.title': 'Download the numbers (CSV)',
    'export.json.title': 'Download the numbers (JSON)',
    'field.named': '{label}: {message}',
    'split.hint': 'Separate words with spaces: did you mean “{text}”?',
    'split.apply': 'Use the spaced form',
    'field.empty': '{label}: enter a value',
    'field.number': '{label}: must be a number',
    'field.integer': '{label}: must be a whole number',
    'field.min': '{label}: at least {min}',
    'field.max': '{label}: at most {max}',
    'field.fixFirst': 'Nothing started: correct {labels} first',
    'field.tooLong': '{label}: at most {max} characters (you typed {n})',
    'field.separator': ', ',
    'try.title': 'Try this:',
    // joining a label to its value, and two values: the punctuation of each language
    'label.pair': '{a}: {b}',
    'label.paren': '{a} ({b})',
    'label.sep': '; ',
  },
  zh: {
    'export.png': 'PNG',
    'export.csv': 'CSV',
    'export.json': 'JSON',
    'worker.crashed': '计算线程已停止，其中的模型已丢失。',
    'worker.restart': '重新启动',
    'error.prefix': '错误：',
    'loading': '加载中…',
    'export.png.title': '下载图片（PNG）',
    'export.csv.title': '下载数值（CSV）',
    'export.json.title': '下载数值（JSON）',
    'field.named': '{label}：{message}',
    'split.hint': '单词之间要用空格分开：你是想输入“{text}”吗？',
    'split.apply': '改用分好词的句子',
    'field.empty': '{label}：请填写',
    'field.number': '{label}：必须是数字',
    'field.integer': '{label}：必须是整数',
    'field.min': '{label}：最小为 {min}',
    'field.max': '{label}：最大为 {max}',
    'field.fixFirst': '没有开始：请先改正{labels}',
    'field.tooLong': '{label}：最多 {max} 个字符（你输入了 {n} 个）',
    'field.separator': '、',
    'try.title': '试一试：',
    'label.pair': '{a}：{b}',
    'label.paren': '{a}（{b}）',
    'label.sep': '；',
  },
};

// One language per page: in the build, each section's string table arrives empty and is filled
// here with the languages in use (web/vite.config.ts, oneLanguageStrings), so that a widget
// downloads the language it shows. Whoever mounts a section imports it, then awaits
// useLanguage(lang), then mounts. Outside the build (Node tests) the tables are plain objects.
type Table = Record<string, string>;
interface LazyStrings {
  readonly strings: Strings;
  readonly load: Record<Lang, () => Promise<{ default: Table }>>;
  readonly loading: Partial<Record<Lang, Promise<void>>>;
  /** only the article fills it (a panel that widgets never mount: web/vite.config.ts) */
  readonly articleOnly: boolean;
}
const lazyTables: LazyStrings[] = [];
const languagesInUse = new Set<Lang>();
let article = false;

function fillTable(entry: LazyStrings, lang: Lang): Promise<void> {
  entry.loading[lang] ??= entry.load[lang]().then((m) => {
    Object.assign(entry.strings[lang], m.default);
  });
  return entry.loading[lang];
}

/** The build's form of a section's string table: empty, filled per language (see above). */
export function oneLanguageStrings(load: LazyStrings['load'], options?: { articleOnly?: boolean }): Strings {
  const entry: LazyStrings = { strings: { en: {}, zh: {} }, load, loading: {}, articleOnly: options?.articleOnly ?? false };
  lazyTables.push(entry);
  if (!entry.articleOnly || article) for (const lang of languagesInUse) void fillTable(entry, lang).catch(() => {}); // awaited by useLanguage
  return entry.strings;
}

/**
 * Resolves once every section string table imported so far has `lang`. Call before mounting.
 * `article`: the article page, which also mounts the panels widgets never show.
 */
export async function useLanguage(lang: Lang, options?: { article?: boolean }): Promise<void> {
  languagesInUse.add(lang);
  if (options?.article) article = true;
  await Promise.all(lazyTables.filter((entry) => !entry.articleOnly || article).map((entry) => fillTable(entry, lang)));
}

/**
 * `load()` (a section's or a panel's code, whose string table arrives with it), then its strings in
 * `lang` (useLanguage). A string table that fails to load leaves its keys on screen rather than no
 * section or panel; a failed `load()` rejects.
 */
export async function importWithStrings<M>(load: () => Promise<M>, lang: Lang, options?: { article?: boolean }): Promise<M> {
  const module = await load();
  await useLanguage(lang, options).catch(() => {});
  return module;
}

/**
 * Several tables read as one (later tables win, as with object spread), looked up when used: a
 * table filled after this call (useLanguage) is seen, which a spread copy would miss.
 */
export function mergeStrings(...tables: Strings[]): Strings {
  const view = (lang: Lang): Table => {
    const find = (key: string | symbol) => {
      for (let i = tables.length - 1; i >= 0; i--) {
        if (typeof key === 'string' && Object.hasOwn(tables[i][lang], key)) return tables[i][lang];
      }
      return undefined;
    };
    const keys = () => [...new Set(tables.flatMap((t) => Object.keys(t[lang])))];
    return new Proxy({} as Table, {
      get: (_, key) => find(key)?.[key as string],
      has: (_, key) => find(key) !== undefined,
      ownKeys: keys,
      getOwnPropertyDescriptor: (_, key) => {
        const table = find(key);
        return table ? { value: table[key as string], enumerable: true, configurable: true, writable: false } : undefined;
      },
    });
  };
  return { en: view('en'), zh: view('zh') };
}

/** 'zh' when the browser prefers Chinese, else 'en'. */
export function browserLang(languages: readonly string[] = navigatorLanguages()): Lang {
  for (const l of languages) {
    if (typeof l !== 'string') continue;
    const tag = l.toLowerCase();
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

function navigatorLanguages(): readonly string[] {
  // Node (tests) and some embedded webviews have no navigator, or no languages list.
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language ?? ''];
}

export function resolveLang(setting: 'auto' | Lang): Lang {
  return setting === 'auto' ? browserLang() : setting;
}

/** Fills {name} placeholders of a translated string (values are numbers or plain text, never markup). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (key in values ? String(values[key]) : m));
}

/** A lookup over several string tables, first match wins. */
export function translator(lang: Lang, ...tables: Strings[]): (key: string) => string {
  return (key) => {
    for (const t of tables) {
      const s = t[lang][key];
      if (s !== undefined) return s;
    }
    for (const t of tables) {
      const s = t.en[key];
      if (s !== undefined) return s;
    }
    return key;
  };
}
