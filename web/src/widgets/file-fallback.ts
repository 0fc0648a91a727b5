// The widget kit's file:// fallback (built as the classic script attention-lab-file.js; the kit's
// loader adds it when the page was opened from disk, where module scripts, workers and wasm do not
// load): a heatmap given its matrix draws as usual, and every widget that computes says in its
// place what happened and that a web server is needed.
import { AttentionHeatmap } from './attention-heatmap';
import { LabWidget, WidgetError } from './lab-widget';
import type { SectionHandle } from '../section';
import { FILE_PAGE_MESSAGE } from './file-client';

class FileNotice extends LabWidget {
  protected mount(): Promise<SectionHandle> {
    const lang = this.language(this.readState().state);
    return Promise.reject(new WidgetError([{ name: this.localName, reason: FILE_PAGE_MESSAGE[lang] }]));
  }
}

for (const name of ['attention-heatmap', 'attention-playground', 'seq2seq-demo', 'multihead-view', 'transformer-demo', 'gpt-demo']) {
  if (customElements.get(name)) continue;
  customElements.define(name, name === 'attention-heatmap' ? AttentionHeatmap : class extends FileNotice {});
}
