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
    'embed.title': 'Embed this view: ',
    'embed.intro': 'Paste one of these into a web page to show this section with the settings you see now.',
    'embed.script.title': 'Script tag and element',
    'embed.script.hint': 'For pages that allow scripts: one script tag loads the widgets, the element shows the section.',
    'embed.iframe.title': 'Iframe',
    'embed.iframe.hint': 'For pages that allow iframes but not scripts (many blog platforms).',
    'embed.copy': 'Copy',
    'embed.copied': 'Copied.',
    'embed.copyManually': 'Could not copy automatically: the text is selected, press Ctrl+C (⌘C on a Mac).',
    'embed.close': 'Close',
    'worker.crashed': 'The computation worker stopped. Models in it were lost.',
    'worker.restart': 'Restart',
    'error.prefix': 'Error: ',
    'loading': 'Loading…',
    'export.png.title': 'Download the picture (PNG)',
    'export.csv.title': 'Download the numbers (CSV)',
    'export.json.title': 'Download the numbers (JSON)',
    'shell.title': 'AttentionLab',
    'shell.lede': 'The attention mechanisms of a study note on attention, live: every view is computed in your browser by a C++/Eigen core compiled to WebAssembly, and the translator trains in front of you.',
    'shell.toc': 'Contents',
    'shell.lang': 'Language',
    'shell.notice.rejected': 'Ignored invalid settings in the address:',
    'shell.notice.unknown': 'Ignored unknown settings in the address:',
    'shell.notice.dismiss': 'Dismiss',
    'shell.showAll': 'Show the whole article',
    'shell.footer': 'Settings live in the address: a link reproduces the page, numbers included. Hover or focus a heatmap cell (arrow keys) to read its value.',
    'shell.mountFailed': 'This section could not start:',
    'shell.performanceLink': 'Performance: how fast the core runs, measured against PyTorch and TF.js (for engineers)',
    'field.named': '{label}: {message}',
    'field.empty': '{label}: enter a value',
    'field.number': '{label}: must be a number',
    'field.integer': '{label}: must be a whole number',
    'field.min': '{label}: at least {min}',
    'field.max': '{label}: at most {max}',
    'try.title': 'Try this:',
  },
  zh: {
    'export.png': 'PNG',
    'export.csv': 'CSV',
    'export.json': 'JSON',
    'embed.button': '嵌入',
    'embed.title': '嵌入此视图：',
    'embed.intro': '把下面任一段代码粘贴到网页中，即可按你现在看到的设置展示这一节。',
    'embed.script.title': '脚本标签与元素',
    'embed.script.hint': '适用于允许脚本的网页：一个 script 标签加载组件，元素显示这一节。',
    'embed.iframe.title': 'iframe 内嵌框架',
    'embed.iframe.hint': '适用于允许 iframe 但不允许脚本的网页（许多博客平台）。',
    'embed.copy': '复制',
    'embed.copied': '已复制。',
    'embed.copyManually': '无法自动复制：文本已选中，请按 Ctrl+C（Mac 上按 ⌘C）。',
    'embed.close': '关闭',
    'worker.crashed': '计算线程已停止，其中的模型已丢失。',
    'worker.restart': '重新启动',
    'error.prefix': '错误：',
    'loading': '加载中…',
    'export.png.title': '下载图片（PNG）',
    'export.csv.title': '下载数值（CSV）',
    'export.json.title': '下载数值（JSON）',
    'shell.title': 'AttentionLab 注意力实验室',
    'shell.lede': '把注意力机制的学习笔记变成可以动手的页面：每个视图都由编译成 WebAssembly 的 C++/Eigen 内核在浏览器中实时计算，翻译模型就在你眼前训练。',
    'shell.toc': '目录',
    'shell.lang': '语言',
    'shell.notice.rejected': '地址中以下设置无效，已忽略：',
    'shell.notice.unknown': '地址中以下设置无法识别，已忽略：',
    'shell.notice.dismiss': '关闭',
    'shell.showAll': '显示全文',
    'shell.footer': '所有设置都保存在地址中：分享链接即可重现页面，数值也相同。将鼠标悬停在热力图单元格上，或用键盘（方向键）聚焦，即可读取数值。',
    'shell.mountFailed': '本节无法启动：',
    'shell.performanceLink': '性能：内核的运行速度，与 PyTorch 和 TF.js 的对比测量（面向工程师）',
    'field.named': '{label}：{message}',
    'field.empty': '{label}：请输入数值',
    'field.number': '{label}：必须是数字',
    'field.integer': '{label}：必须是整数',
    'field.min': '{label}：最小为 {min}',
    'field.max': '{label}：最大为 {max}',
    'try.title': '试一试：',
  },
};

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
