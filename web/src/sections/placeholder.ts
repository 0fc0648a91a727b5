// A stand-in section for a section module that is not written yet: it says so, and computes one
// small attention through the worker into a heatmap, so the shell (mounting, visibility, worker
// restart, language switch) can be exercised end to end without the real sections.
import { Heatmap } from '../heatmap';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { SectionId } from '../state-table';

const STRINGS = {
  en: { 'placeholder.text': 'This section is being written.', 'placeholder.map': 'Attention weights (placeholder)' },
  zh: { 'placeholder.text': '本节正在编写中。', 'placeholder.map': '注意力权重（占位）' },
};

export function placeholderSection(id: SectionId, title: SectionModule['title']): SectionModule {
  return {
    id,
    title,
    strings: STRINGS,
    mount(host: HTMLElement, ctx: SectionContext): SectionHandle {
      const root = document.createElement('div');
      root.className = 'placeholder-section';
      const p = document.createElement('p');
      p.textContent = ctx.t('placeholder.text');
      root.append(p);
      host.append(root);
      const map = new Heatmap(root, { id: `${id}-placeholder`, title: ctx.t('placeholder.map'), fixedRange: [0, 1], t: ctx.t });
      let alive = true;
      const draw = () => {
        const seed = ctx.state.get('seed');
        const q = Array.from({ length: 8 }, (_, i) => Math.sin(seed + i));
        const k = Array.from({ length: 12 }, (_, i) => Math.cos(seed * 2 + i));
        ctx.lab
          .attention({ query: { shape: [1, 2, 4], data: q }, key: { shape: [1, 3, 4], data: k }, value: { shape: [1, 3, 4], data: k } })
          .then((r) => {
            if (alive) map.update({ rows: 2, cols: 3, values: r.weights.data, rowLabels: ['q1', 'q2'], colLabels: ['k1', 'k2', 'k3'] });
          })
          .catch(() => {}); // a crash is the shell's to report
      };
      draw();
      const unsubscribe = ctx.state.subscribe((changed) => {
        if (changed.includes('seed')) draw();
      });
      return {
        setActive: () => {},
        onWorkerRestart: draw,
        destroy: () => {
          alive = false;
          unsubscribe();
          map.destroy();
          root.remove();
        },
      };
    },
  };
}
