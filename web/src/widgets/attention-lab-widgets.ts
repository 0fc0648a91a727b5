// The widget bundle (dist/widgets/attention-lab-widgets.js, a stable name): one ES module that
// registers every AttentionLab custom element. Only the element classes and the state table are in
// this file's chunk; each section, the heatmap and the worker client load on first
// visibility of an element that needs them.
//   <script type="module" src="/widgets/attention-lab-widgets.js"></script>  (or wherever dist/ sits)
//   <attention-playground mechanism="scaled-dot" seed="3"></attention-playground>
import { AttentionHeatmap } from './attention-heatmap';
import { AttentionPlayground, GptDemo, MultiheadView, Seq2SeqDemo, TransformerDemo } from './section-widget';

const ELEMENTS: [string, CustomElementConstructor][] = [
  ['attention-heatmap', AttentionHeatmap],
  ['attention-playground', AttentionPlayground],
  ['seq2seq-demo', Seq2SeqDemo],
  ['multihead-view', MultiheadView],
  ['transformer-demo', TransformerDemo],
  ['gpt-demo', GptDemo],
];

for (const [name, element] of ELEMENTS) {
  // a page that includes the script twice (or two versions) keeps the first definition
  if (!customElements.get(name)) customElements.define(name, element);
}
