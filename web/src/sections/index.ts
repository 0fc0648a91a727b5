// The article's sections, in the note's order: §1, §2, §3.1–3.2, §3.3, §3.4–3.5, §3.6, §4. The shell
// (main.ts) writes their headings from titles.ts and loads each one's code on demand through the
// widgets' loaders (widgets/sections.ts), so that the section on screen does not wait for the
// others' code; the performance figures have their own page (performance.html, performance-page.ts).
import type { EmbeddableSection } from '../widgets/sections';

export const ARTICLE_SECTIONS: readonly EmbeddableSection[] = ['why', 'idea', 'dot', 'translate', 'self', 'multihead', 'transformer'];
