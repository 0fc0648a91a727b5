// Each section's heading, in the note's numbering: the article's headings and contents, written
// before any section's code has arrived (the shell loads each section on demand), and embed.html's
// title. Not part of the sections themselves, so a widget (whose headings are the host's) does not
// download them.
import type { Lang } from '../i18n';
import type { EmbeddableSection } from '../widgets/sections';

export const SECTION_TITLES: Record<EmbeddableSection, Record<Lang, string>> = {
  why: { en: '1. Why attention: long sequences', zh: '1. 问题：长距离依赖与信息压缩' },
  idea: { en: '2. The core idea: attend to what matters', zh: '2. 核心思想：关注关键信息' },
  dot: { en: '3.1–3.2 Dot-product and scaled dot-product attention', zh: '3.1–3.2 点积注意力与缩放点积注意力' },
  translate: { en: '3.3 Encoder-decoder attention', zh: '3.3 解码器-编码器注意力' },
  self: { en: '3.4–3.5 QKV and self-attention', zh: '3.4–3.5 QKV 与自注意力' },
  multihead: { en: '3.6 Multi-head attention', zh: '3.6 多头注意力' },
  transformer: { en: '4. The Transformer', zh: '4. Transformer 模型' },
};
