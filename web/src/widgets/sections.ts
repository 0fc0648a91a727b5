// Which article section each widget mounts, loaded on demand: one dynamic import() per section, so a
// page with one widget downloads that section's code (and its charts) and nothing else.
import type { SectionModule } from '../section';
import type { SectionId } from '../state-table';
import { fetchKitCorpus } from './gpt-corpus';

export type EmbeddableSection = Exclude<SectionId, 'performance'>;
/** The article's sections: every embeddable one (the performance page is a page of its own). */
export type ArticleSection = EmbeddableSection;

export const SECTION_LOADERS: Record<EmbeddableSection, () => Promise<SectionModule>> = {
  dot: () => import('../sections/dot').then((m) => m.dotSection),
  self: () => import('../sections/self').then((m) => m.selfSection),
  multihead: () => import('../sections/multihead').then((m) => m.multiheadSection),
  why: () => import('../sections/why').then((m) => m.whySection),
  idea: () => import('../sections/idea').then((m) => m.ideaSection),
  translate: () => import('../sections/translate').then((m) => m.translateSection),
  transformer: () => import('../sections/transformer').then((m) => m.transformerSection),
  // the poems from beside the kit's code, wherever the host page is (gpt-corpus.ts)
  gpt: () => import('../sections/gpt').then((m) => m.gptSectionWith(fetchKitCorpus)),
};

export function isEmbeddable(id: string): id is EmbeddableSection {
  return Object.hasOwn(SECTION_LOADERS, id);
}

/**
 * <attention-playground mechanism="…">: the section each mechanism shows and the settings it
 * implies (attributes given explicitly win over these presets).
 */
export const MECHANISMS: Record<string, { view: EmbeddableSection; preset: [string, string][] }> = {
  dot: { view: 'dot', preset: [['dot_score', 'dot']] },
  'scaled-dot': { view: 'dot', preset: [['dot_score', 'scaled']] },
  self: { view: 'self', preset: [] },
  multihead: { view: 'multihead', preset: [] },
  'encoder-decoder': { view: 'translate', preset: [] },
  why: { view: 'why', preset: [] },
  idea: { view: 'idea', preset: [] },
  transformer: { view: 'transformer', preset: [] },
};
export const MECHANISM_NAMES = Object.keys(MECHANISMS);
