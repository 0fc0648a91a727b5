// §4's "ask the model why" panel (translate-why.ts, shared with §3.3), its code loaded on demand:
// in the article at once, in a widget when the reader presses the button (the widget's page
// carries only the button and its label). Its interventions live in the link (tf_why).
import type { SectionContext } from '../section';
import type { LazyWhyView } from './translate-why-lazy';
import { button, el } from './dom';

/** Mounts the panel under `host`; `ready` gets it once its code has arrived. */
export function mountTransformerWhy(host: HTMLElement, ctx: SectionContext, ready: (view: LazyWhyView) => void): void {
  const { state } = ctx;
  const slot = el('div');
  host.append(slot);
  const load = () =>
    void import('./translate-why-lazy').then(({ LazyWhyView }) => {
      ready(new LazyWhyView(slot, ctx, {
        prefix: 'tf',
        link: { name: 'tf_why', get: () => state.get('tf_why'), set: (text) => state.set('tf_why', text) },
      }));
    });
  if (!ctx.embedded) return load();
  const open = button(ctx.t('tf.why.open'), 'tf-why-open', () => {
    open.remove();
    load();
  });
  open.classList.add('quiet');
  slot.append(open);
}
