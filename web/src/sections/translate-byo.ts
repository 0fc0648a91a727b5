// The bring-your-own panels, loaded on demand by translate.ts (§3.3) and transformer.ts (§4), in the
// article only, not the widgets, whose download they would grow: "Download model" for the section's
// trained model, in §3.3 your own pairs (translate-pairs.ts), and the model-file picker
// (model-file.ts), with their styles.
import type { SectionContext } from '../section';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { adoptCss, styleRootOf } from '../adopt-css';
import css from './model-file.css?inline';
import { ModelDownloads, ModelFilePanel, withStrings } from './model-file';
import { PairsPanel } from './translate-pairs';

export interface ByoPanels {
  destroy(): void;
}

/** How a section mounts the panels: its test-id prefix and the downloads' file name. */
export interface ByoOptions {
  /** the section's slug: the panels' test ids are <slug>-file-…, <slug>-download-… */
  prefix: 'translate' | 'transformer';
  /** the file name of a download, without its extension */
  baseName: () => string;
}

/** Where they go: the downloads and the file picker in `files`, your own pairs (if offered) in `pairs`. */
export interface ByoHosts {
  files: HTMLElement;
  pairs?: HTMLElement;
}

/** Mounts the panels into `hosts`; `model` is the section's trained model (null before training). */
export function mountByo(
  hosts: ByoHosts,
  root: HTMLElement,
  ctx: SectionContext,
  model: () => RemoteSeq2Seq | null,
  { prefix, baseName }: ByoOptions,
): ByoPanels {
  const styleRoot = styleRootOf(root);
  if (styleRoot) adoptCss(styleRoot, css);
  const own = withStrings(ctx);
  new ModelDownloads(hosts.files, own, model, baseName, `${prefix}-download`);
  const pairsPanel = hosts.pairs ? new PairsPanel(hosts.pairs, own) : null;
  const file = new ModelFilePanel(hosts.files, own, `${prefix}-file`);
  return {
    destroy() {
      pairsPanel?.destroy();
      file.destroy();
    },
  };
}
