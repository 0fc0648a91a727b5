// Text of the figures themselves (heatmap legend, screen-reader label, column scroller, export menu),
// in both languages. Figures get a section's translator; a key it does not know is looked up here in
// the language that translator speaks (figureTranslator).
import { SHELL_STRINGS, type Lang, type Strings } from './i18n';

export const FIGURE_STRINGS: Strings = {
  en: {
    'heatmap.aria': '{title}: heatmap of {rows} rows by {cols} columns, values from {min} to {max}. Focus it and use the arrow keys to read cells.',
    'heatmap.loading': 'Heatmap',
    'chart.table': 'Data table',
    'chart.aria.line': '{label}: line chart of {series}; x: {x}, y: {y}.',
    'chart.aria.sep': ', ',
    'heatmap.legend.low': 'lightest colour: {value}',
    'heatmap.legend.high': 'darkest colour: {value}',
    'heatmap.legend.negative': 'most negative (orange): {value}',
    'heatmap.legend.positive': 'most positive (purple): {value}',
    'heatmap.legend.shared': 'colour scale shared by {count} heatmaps',
    'heatmap.legend.sharedWhere': 'shared by {count} heatmaps, {where}',
    'heatmap.legend.label': 'colour legend',
    'heatmap.more.right': '+{n} columns →',
    'heatmap.more.right.one': '+1 column →',
    'heatmap.more.right.aria': '{text}: scroll right, {n} more columns ({from}–{to} of {cols} shown)',
    'heatmap.more.left': '← {n}',
    'heatmap.more.left.aria': '{text}: scroll left, {n} columns before',
    'heatmap.cell': '{row} · {col}: {value}',
    'export.menu': 'Export',
    'export.menu.aria': 'Export {label}',
    'export.svg': 'SVG',
    'export.svg.title': 'Download the picture as vector graphics (SVG)',
    'export.png.figure.title': 'Download the picture (PNG, with title and legend)',
    'export.html': 'Standalone HTML',
    'export.html.title': 'Download one HTML file that shows this figure, opens by double-click and works offline',
    'export.embed': 'Embed…',
    'export.embed.title': 'Snippets that put this figure, its numbers included, on your own site',
  },
  zh: {
    'heatmap.aria': '{title}：{rows} 行 × {cols} 列的热力图，数值从 {min} 到 {max}。聚焦后用方向键逐格读取数值。',
    'heatmap.loading': '热力图',
    'chart.table': '数据表',
    'chart.aria.line': '{label}：折线图，曲线为 {series}；横轴 {x}，纵轴 {y}。',
    'chart.aria.sep': '、',
    'heatmap.legend.low': '最浅的颜色：{value}',
    'heatmap.legend.high': '最深的颜色：{value}',
    'heatmap.legend.negative': '最负（橙色）：{value}',
    'heatmap.legend.positive': '最正（紫色）：{value}',
    'heatmap.legend.shared': '{count} 张热力图共用同一色标',
    'heatmap.legend.sharedWhere': '{count} 张热力图共用此色标，{where}',
    'heatmap.legend.label': '颜色图例',
    'heatmap.more.right': '还有 {n} 列 →',
    'heatmap.more.right.one': '还有 1 列 →',
    'heatmap.more.right.aria': '{text}：向右滚动，还有 {n} 列（显示第 {from}–{to} 列，共 {cols} 列）',
    'heatmap.more.left': '← {n} 列',
    'heatmap.more.left.aria': '{text}：向左滚动，前面还有 {n} 列',
    'heatmap.cell': '{row} · {col}：{value}',
    'export.menu': '导出',
    'export.menu.aria': '导出{label}',
    'export.svg': 'SVG',
    'export.svg.title': '下载矢量图（SVG）',
    'export.png.figure.title': '下载图片（PNG，含标题和图例）',
    'export.html': '独立 HTML',
    'export.html.title': '下载一个显示此图的 HTML 文件：双击即可打开，离线可用',
    'export.embed': '嵌入…',
    'export.embed.title': '把此图（连同数值）放到你自己网站上的代码',
  },
};

export type Translate = (key: string) => string;

/** The language a section's translator speaks (it carries the shell's strings). */
export function langOfTranslate(t: Translate): Lang {
  return t('export.png.title') === SHELL_STRINGS.zh['export.png.title'] ? 'zh' : 'en';
}

/** The language of the page around `node` ('zh…' → zh), crossing shadow roots; `lang="auto"` is skipped. */
export function langOfNode(node: Node | null): Lang {
  let n: Node | null = node;
  while (n) {
    if (n instanceof Element) {
      const lang = (n.getAttribute('lang') ?? '').toLowerCase();
      if (lang && lang !== 'auto') return lang.startsWith('zh') ? 'zh' : 'en';
    }
    n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null);
  }
  return 'en';
}

/** `t`, with the figure strings (in `t`'s language, or `lang`) for the keys it does not know. */
export function figureTranslator(t: Translate | undefined, lang?: Lang): Translate {
  const language = lang ?? (t ? langOfTranslate(t) : 'en');
  return (key) => {
    const s = t?.(key);
    if (s !== undefined && s !== key) return s;
    return FIGURE_STRINGS[language][key] ?? SHELL_STRINGS[language][key] ?? FIGURE_STRINGS.en[key] ?? key;
  };
}
