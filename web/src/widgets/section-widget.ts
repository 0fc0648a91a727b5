// Widgets that mount one of the article's sections (embedded: no page chrome) in their shadow root:
// <attention-playground mechanism="dot|scaled-dot|self|multihead|encoder-decoder|why|transformer">,
// <seq2seq-demo task="zh-en|note|dates">, <multihead-view>, <transformer-demo task="dates|zh-en">,
// <gpt-demo> (§5: the poems come from beside the kit, widgets/gpt-corpus.ts). The section's own CSS is inserted by the
// section inside its host, which here is inside the shadow root.
import { SHELL_STRINGS, translator, useLanguage } from '../i18n';
import type { SectionHandle } from '../section';
import { LabWidget, type WidgetProblem } from './lab-widget';
import { MECHANISM_NAMES, MECHANISMS, SECTION_LOADERS, type EmbeddableSection } from './sections';
import { RECIPES, type TaskName } from '../sections/translate-recipes';
import { TRANSFORMER_EXAMPLES } from '../sections/transformer-recipes';

abstract class SectionWidget extends LabWidget {
  /** the section to mount and settings implied by the element's own attributes */
  protected abstract target(): { view: EmbeddableSection; preset: [string, string][]; problems: WidgetProblem[] };

  protected async mount(): Promise<SectionHandle> {
    const { view, preset, problems } = this.target();
    const parsed = this.readState(preset);
    const state = parsed.state;
    state.set('view', view);
    this.showProblems([...problems, ...this.stateProblems(parsed)]);
    const lang = this.language(state);
    const [section, lab] = await Promise.all([SECTION_LOADERS[view](), this.lab(lang)]);
    await useLanguage(lang); // the section's strings, in this language only (i18n.ts)
    const host = document.createElement('div');
    host.className = `widget-section widget-${view}`;
    host.lang = lang;
    this.body.replaceChildren(host);
    return section.mount(host, {
      state,
      lab,
      lang,
      t: translator(lang, section.strings, SHELL_STRINGS),
      embedded: true,
    });
  }
}

export class AttentionPlayground extends SectionWidget {
  protected static override readonly ownAttributes = ['mechanism'];

  protected target() {
    const raw = this.getAttribute('mechanism') ?? 'scaled-dot';
    const known = Object.hasOwn(MECHANISMS, raw);
    const problems: WidgetProblem[] = known
      ? []
      : [{ name: 'mechanism', reason: `expected one of ${MECHANISM_NAMES.join(', ')}; showing scaled-dot` }];
    const { view, preset } = MECHANISMS[known ? raw : 'scaled-dot'];
    return { view, preset, problems };
  }
}

export class Seq2SeqDemo extends SectionWidget {
  protected static override readonly ownAttributes = ['task'];

  protected target() {
    // `task` is the short spelling of translate_task (validated by the state table like any setting; an
    // explicit translate_task attribute wins). It brings the task's recipe along (task="note": the
    // book's RNN 128 at 0.001), unless the element sets those attributes itself.
    const task = this.getAttribute('task');
    if (task === null) return { view: 'translate' as const, preset: [], problems: [] };
    const preset: [string, string][] = [['translate_task', task]];
    const recipe = Object.hasOwn(RECIPES, task) ? RECIPES[task as TaskName] : null;
    if (recipe) preset.push(['translate_cell', recipe.cell], ['translate_hidden', String(recipe.hidden)], ['translate_lr', String(recipe.lr)]);
    return { view: 'translate' as const, preset, problems: [] };
  }
}

export class MultiheadView extends SectionWidget {
  protected target() {
    return { view: 'multihead' as const, preset: [], problems: [] };
  }
}

export class TransformerDemo extends SectionWidget {
  protected static override readonly ownAttributes = ['task'];

  protected target() {
    // `task` is the short spelling of transformer_task (validated by the state table; an explicit transformer_task
    // attribute wins), with that task's first example as the sentence unless transformer_text is given.
    const task = this.getAttribute('task');
    const preset: [string, string][] = task === null ? [] : [['transformer_task', task]];
    if (task === 'zh-en') preset.push(['transformer_text', TRANSFORMER_EXAMPLES['zh-en'][0]]);
    return { view: 'transformer' as const, preset, problems: [] };
  }
}

export class GptDemo extends SectionWidget {
  protected target() {
    return { view: 'gpt' as const, preset: [], problems: [] };
  }
}
