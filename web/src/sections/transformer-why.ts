// §4's "ask the model why" panel (translate-why.ts, shared with §3.3), its code loaded on demand
// and in the article only: the widgets' Transformer module leaves decoding interventions out (they
// would put a page with one <transformer-demo> over its download budget; docs/build.md), so a widget
// mounts nothing here. Its interventions live in the link (transformer_why).
import type { SectionContext } from '../section';
import type { LazyWhyView } from './translate-why-lazy';
import { el } from './dom';

/**
 * Mounts the panel under `host` (the article only); its code loads once `gate` resolves (its
 * collapsed panel first opens), and `ready` gets it once that code has arrived.
 */
export function mountTransformerWhy(host: HTMLElement, ctx: SectionContext, gate: Promise<void>, ready: (view: LazyWhyView) => void): void {
  if (ctx.embedded) return;
  const { state } = ctx;
  const slot = el('div');
  host.append(slot);
  void import('./translate-why-lazy').then(({ LazyWhyView }) => {
    ready(new LazyWhyView(slot, ctx, {
      prefix: 'transformer',
      link: { name: 'transformer_why', get: () => state.get('transformer_why'), set: (text) => state.set('transformer_why', text) },
    }, gate));
  });
}
