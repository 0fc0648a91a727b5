// The article's sections in the note's order (§1, §2, §3.1–3.2, §3.3, §3.4–3.5, §3.6, §4, §5) and each
// one's heading: the shell writes every heading and the contents before any section's code has
// arrived (it loads each section on demand, through widgets/sections.ts), and embed.html takes its
// title from here. Not part of the sections themselves, so a widget (whose headings are the
// host's) does not download them. The performance figures have their own page.
import type { Lang } from '../i18n';
import type { ArticleSection } from '../widgets/sections';

export const SECTION_TITLES: Record<ArticleSection, Record<Lang, string>> = {
  why: { en: '1. Why attention: long sequences', zh: '1. 问题：长距离依赖与信息压缩' },
  idea: { en: '2. The core idea: attend to what matters', zh: '2. 核心思想：关注关键信息' },
  dot: { en: '3.1–3.2 Dot-product and scaled dot-product attention', zh: '3.1–3.2 点积注意力与缩放点积注意力' },
  translate: { en: '3.3 Encoder-decoder attention', zh: '3.3 编码器-解码器注意力' },
  self: { en: '3.4–3.5 QKV and self-attention', zh: '3.4–3.5 QKV 与自注意力' },
  multihead: { en: '3.6 Multi-head attention', zh: '3.6 多头注意力' },
  transformer: { en: '4. The Transformer', zh: '4. Transformer 模型' },
  gpt: { en: '5. From attention to GPT', zh: '5. 从注意力到 GPT' },
};

/** The article's order: the table's, so that no section can be in one list and not the other. */
export const ARTICLE_SECTIONS = Object.keys(SECTION_TITLES) as ArticleSection[];
