// The words the Performance page shows for the bench's browser rows, in both languages, keyed by
// the id results.json gives each row: the path of the page a row measures (bench/lib/browser.mjs,
// FIRST_HEATMAP and ONE_WIDGET_PAGES) or the task a training row trains. The bench's own `page`
// text is English for engineers reading results.json; the page shows these instead, and a row
// the table lacks shows the bench's text marked as English (tests/web/performance-labels checks
// that every row of the committed results has a label).
import type { Lang } from '../i18n';

export interface RowLabel extends Record<Lang, string> {
  /** the widget's element, shown as code (the same in both languages) */
  element?: string;
}

/** one label per measured page, by its path */
export const PAGE_LABELS: Record<string, RowLabel> = {
  '/bench-floor.html': {
    en: 'a canvas filled by the page’s one script (the browser’s floor)',
    zh: '只有一个脚本填充一块画布的页面（浏览器本身的下限）',
  },
  '/examples/test-one-heatmap.html': {
    en: 'a heatmap given its matrix (no WebAssembly)',
    zh: '给定矩阵的热力图（不加载 WebAssembly）',
    element: '<attention-heatmap data=…>',
  },
  '/examples/test-one-live-heatmap.html': {
    en: 'a heatmap that computes self-attention (the attention build, in a worker)',
    zh: '自己计算自注意力的热力图（注意力模块，在后台线程中）',
    element: '<attention-heatmap mechanism=self>',
  },
  '/#view=dot': {
    en: 'the article opened at §3.1–3.2: its first heatmap',
    zh: '直接打开正文的 §3.1–3.2：它的第一张热力图',
  },
  '/': {
    en: 'the article from the top: §3.1–3.2’s heatmap, below the fold (drawn when idle)',
    zh: '从头打开正文：§3.1–3.2 的热力图，在首屏之下（浏览器空闲时绘制）',
  },
  '/examples/test-one-playground.html': {
    en: 'scaled dot-product attention',
    zh: '缩放点积注意力',
    element: '<attention-playground mechanism=scaled-dot>',
  },
  '/examples/test-one-multihead.html': {
    en: 'multi-head attention',
    zh: '多头注意力',
    element: '<multihead-view>',
  },
  '/examples/test-one-encoder-decoder.html': {
    en: 'encoder-decoder attention',
    zh: '编码器-解码器注意力',
    element: '<attention-playground mechanism=encoder-decoder>',
  },
  '/examples/test-one-why.html': {
    en: 'why attention (§1)',
    zh: '为什么需要注意力（§1）',
    element: '<attention-playground mechanism=why>',
  },
  '/examples/test-one-seq2seq.html': {
    en: 'the note’s translator, in English',
    zh: '笔记的翻译模型，英文界面',
    element: '<seq2seq-demo task=note>',
  },
  '/examples/test-one-seq2seq.zh.html': {
    en: 'the note’s translator, in Chinese',
    zh: '笔记的翻译模型，中文界面',
    element: '<seq2seq-demo task=note lang=zh>',
  },
  '/examples/test-one-transformer.html': {
    en: 'the Transformer on dates, in English',
    zh: '日期任务上的 Transformer，英文界面',
    element: '<transformer-demo task=dates>',
  },
  '/examples/test-one-transformer.zh.html': {
    en: 'the Transformer on dates, in Chinese',
    zh: '日期任务上的 Transformer，中文界面',
    element: '<transformer-demo task=dates lang=zh>',
  },
  '/examples/test-one-playground-transformer.html': {
    en: 'the Transformer’s attention',
    zh: 'Transformer 的注意力',
    element: '<attention-playground mechanism=transformer>',
  },
  '/examples/test-one-gpt.html': {
    en: 'a small GPT on the Tang poems (the poems fetched on top)',
    zh: '在唐诗上训练的小 GPT（诗集另行下载）',
    element: '<gpt-demo>',
  },
};

/** the training rows, by task (results.browser.training's keys) */
export const TASK_LABELS: Record<'note' | 'dates' | 'transformer', RowLabel> = {
  note: { en: 'the note’s recipe (§3.3)', zh: '笔记的训练方案（§3.3）' },
  dates: { en: 'the dates recipe (§3.3)', zh: '日期任务（§3.3）' },
  transformer: { en: '§4 Transformer', zh: '§4 Transformer' },
};
