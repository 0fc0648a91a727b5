// Two languages, Chinese (the note's own) and English. Each section carries its own strings; the
// shell's shared strings are below. A missing key falls back to English, then to the key itself
// (so a gap shows up as a visible key, not as an empty label).
export type Lang = 'en' | 'zh';
export type Strings = Record<Lang, Record<string, string>>;

export const SHELL_STRINGS: Strings = {
  en: {
    'export.png': 'PNG',
    'export.csv': 'CSV',
    'export.json': 'JSON',
    'embed.button': 'Embed',
    'worker.crashed': 'The computation worker stopped. Models in it were lost.',
    'worker.restart': 'Restart',
    'error.prefix': 'Error: ',
    'loading': 'Loading…',
  },
  zh: {
    'export.png': 'PNG',
    'export.csv': 'CSV',
    'export.json': 'JSON',
    'embed.button': '嵌入',
    'worker.crashed': '计算线程已停止，其中的模型已丢失。',
    'worker.restart': '重新启动',
    'error.prefix': '错误：',
    'loading': '加载中…',
  },
};

/** 'zh' when the browser prefers Chinese, else 'en'. */
export function browserLang(languages: readonly string[] = navigator.languages ?? [navigator.language]): Lang {
  for (const l of languages) {
    const tag = l.toLowerCase();
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

export function resolveLang(setting: 'auto' | Lang): Lang {
  return setting === 'auto' ? browserLang() : setting;
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
