// §3.3's bring-your-own panels, loaded on demand by translate.ts (the article only, not the
// widgets, whose download they would grow): "Download model" for the section's trained model, your
// own pairs (translate-pairs.ts) and the model-file picker (model-file.ts), with their styles.
import type { SectionContext } from '../section';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { adoptCss, styleRootOf } from '../adopt-css';
import css from './model-file.css?inline';
import { ModelDownloads, ModelFilePanel, withStrings } from './model-file';
import { PairsPanel } from './translate-pairs';

export interface ByoPanels {
  destroy(): void;
}

/** Mounts the panels into `host`; `model` is the section's trained model (null before training). */
export function mountByo(
  host: HTMLElement,
  root: HTMLElement,
  ctx: SectionContext,
  model: () => RemoteSeq2Seq | null,
  task: () => string,
): ByoPanels {
  const styleRoot = styleRootOf(root);
  if (styleRoot) adoptCss(styleRoot, css);
  const own = withStrings(ctx);
  new ModelDownloads(host, own, model, () => `attention-lab-${task()}`);
  const pairs = new PairsPanel(host, own);
  const file = new ModelFilePanel(host, own);
  return {
    destroy() {
      pairs.destroy();
      file.destroy();
    },
  };
}
