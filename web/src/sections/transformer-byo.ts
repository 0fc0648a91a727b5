// §4's bring-your-own panels, loaded on demand by transformer.ts (the article only, not the
// widgets, whose download they would grow): "Download model" (.safetensors under the reference
// module's state-dict names, or the project's own file) for the section's trained Transformer,
// and the model-file picker with drag and drop (model-file.ts), as §3.3 has them.
import type { SectionContext } from '../section';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { adoptCss, styleRootOf } from '../adopt-css';
import css from './model-file.css?inline';
import { ModelDownloads, ModelFilePanel, withStrings } from './model-file';

export interface TransformerByoPanels {
  destroy(): void;
}

/** Mounts the panels into `host`; `model` is the section's trained Transformer (null before training). */
export function mountTransformerByo(
  host: HTMLElement,
  root: HTMLElement,
  ctx: SectionContext,
  model: () => RemoteSeq2Seq | null,
  task: () => string,
): TransformerByoPanels {
  const styleRoot = styleRootOf(root);
  if (styleRoot) adoptCss(styleRoot, css);
  const own = withStrings(ctx);
  new ModelDownloads(host, own, model, () => `attention-lab-transformer-${task()}`, 'tf-download');
  const file = new ModelFilePanel(host, own, 'tf-file');
  return { destroy: () => file.destroy() };
}
