// Every setting of the app, in one table: name (the URL-hash key and the widget attribute), kind,
// default and limits. The state (state.ts) parses and validates against this table and nothing else.
// Names are snake_case so they work both as hash keys and as HTML attribute names; each section's
// settings carry its slug, its SectionId, as prefix (why_, idea_, dot_, translate_, self_,
// multihead_, transformer_, gpt_), and OLD_PREFIXES below reads the other names links still carry.

// Type-only imports: scripts/attribute-table.mjs evaluates this file on its own.
import type { ScoreName } from '#types/attention-lab';
import type { CellName } from '#types/seq2seq';

export type SectionId = 'why' | 'idea' | 'dot' | 'translate' | 'self' | 'multihead' | 'performance' | 'transformer' | 'gpt';
export const SECTION_IDS: readonly SectionId[] = ['why', 'idea', 'dot', 'translate', 'self', 'multihead', 'performance', 'transformer', 'gpt'];

/**
 * Prefixes that links and embeds already published use for three sections' settings: a hash key or
 * attribute starting with one reads as the same name under the section's slug (s2s_task is
 * translate_task, tf_heads_hide is transformer_heads_hide). When both spellings of a setting are
 * given, the slug's wins. The app writes the slug's names only.
 */
export const OLD_PREFIXES: ReadonlyMap<string, SectionId> = new Map([
  ['s2s_', 'translate'],
  ['tf_', 'transformer'],
  ['mh_', 'multihead'],
]);

interface Base {
  readonly name: string;
  /** the section whose controls show it ('global': the page header) */
  readonly section: SectionId | 'global';
  /** one line for the README's attribute table */
  readonly doc: string;
}
export interface IntProp extends Base {
  readonly kind: 'int';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}
export interface NumberProp extends Base {
  readonly kind: 'number';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}
export interface EnumProp extends Base {
  readonly kind: 'enum';
  readonly default: string;
  readonly values: readonly string[];
}
export interface BoolProp extends Base {
  readonly kind: 'bool';
  readonly default: boolean;
}
export interface TextProp extends Base {
  readonly kind: 'text';
  readonly default: string;
  /** in characters (code points) */
  readonly maxLength: number;
}
/** A comma-separated list of finite numbers (e.g. edited matrix cells); empty: use the seed. */
export interface NumbersProp extends Base {
  readonly kind: 'numbers';
  readonly default: readonly number[];
  readonly maxLength: number;
  readonly min: number;
  readonly max: number;
}
export type PropDef = IntProp | NumberProp | EnumProp | BoolProp | TextProp | NumbersProp;

/** The attention score functions and recurrent cells, in the order the controls list them. */
export const SCORES = ['dot', 'scaled', 'general', 'additive', 'cosine'] as const satisfies readonly ScoreName[];
export const CELLS = ['rnn', 'gru', 'lstm'] as const satisfies readonly CellName[];
/**
 * The largest seed a URL or attribute may give: 2^31 - 1, so a seed fits a signed 32-bit integer in
 * whatever reads the URL. The seeds feed mulberry32 (random.ts), which takes any 32 bits.
 */
export const MAX_SEED = 2147483647;

export const PROPS = [
  // Page
  { name: 'lang', section: 'global', kind: 'enum', default: 'auto', values: ['auto', 'en', 'zh'], doc: 'language: auto (from the browser), en or zh' },
  { name: 'seed', section: 'global', kind: 'int', default: 1, min: 0, max: MAX_SEED, doc: 'seed of every random draw (inputs, weights, data)' },
  { name: 'view', section: 'global', kind: 'enum', default: 'all', values: ['all', ...SECTION_IDS], doc: 'show the whole article or one section' },

  // §1 Why attention: plain vs attention Seq2Seq on the long-sequence task
  { name: 'why_cell', section: 'why', kind: 'enum', default: 'gru', values: CELLS, doc: 'recurrent cell of both models' },
  { name: 'why_hidden', section: 'why', kind: 'int', default: 32, min: 8, max: 256, doc: 'hidden size of both models (embedding: half of it)' },
  { name: 'why_max_len', section: 'why', kind: 'int', default: 40, min: 10, max: 60, doc: 'longest training and test sequence' },
  { name: 'why_steps', section: 'why', kind: 'int', default: 400, min: 20, max: 5000, doc: 'training steps per model' },

  // §2 The core idea: several questions attend to different words of one sentence
  { name: 'idea_strength', section: 'idea', kind: 'int', default: 4, min: 0, max: 6, doc: 'length of the fixed questions (0: no content, every word weighted equally)' },
  { name: 'idea_q', section: 'idea', kind: 'numbers', default: [0, 0, 0, 0, 3], maxLength: 5, min: -10, max: 10, doc: "the reader's own question: person, place, time, action, thing" },

  // §3.1/§3.2 Dot-product and scaled dot-product
  { name: 'dot_score', section: 'dot', kind: 'enum', default: 'scaled', values: ['dot', 'scaled'], doc: 'dot (§3.1) or scaled (§3.2)' },
  { name: 'dot_n', section: 'dot', kind: 'int', default: 3, min: 1, max: 8, doc: 'number of queries' },
  { name: 'dot_m', section: 'dot', kind: 'int', default: 5, min: 1, max: 8, doc: 'number of keys (= values)' },
  { name: 'dot_d', section: 'dot', kind: 'int', default: 4, min: 1, max: 8, doc: 'feature size' },
  { name: 'dot_q', section: 'dot', kind: 'numbers', default: [], maxLength: 64, min: -1e6, max: 1e6, doc: 'query values, row by row (empty: drawn from the seed)' },
  { name: 'dot_k', section: 'dot', kind: 'numbers', default: [], maxLength: 64, min: -1e6, max: 1e6, doc: 'key (= value) values, row by row (empty: drawn from the seed)' },
  { name: 'dot_sweep_d', section: 'dot', kind: 'int', default: 64, min: 1, max: 1024, doc: 'feature size of the saturation demo' },
  { name: 'dot_open_sweep', section: 'dot', kind: 'bool', default: false, doc: 'the saturation demo (why divide by √d) is open (a link with dot_sweep_d opens it too)' },

  // §3.3 Encoder-decoder attention: the note's translator (and dates)
  { name: 'translate_task', section: 'translate', kind: 'enum', default: 'zh-en', values: ['zh-en', 'note', 'dates'], doc: "the grammar corpus (Chinese → English with word-order changes), the note's five sentences (the book's recipe: translate_cell=rnn, translate_hidden=128, translate_lr=0.001), or dates" },
  { name: 'translate_cell', section: 'translate', kind: 'enum', default: 'gru', values: CELLS, doc: 'recurrent cell' },
  { name: 'translate_hidden', section: 'translate', kind: 'int', default: 64, min: 4, max: 256, doc: 'hidden size' },
  { name: 'translate_score', section: 'translate', kind: 'enum', default: 'dot', values: ['none', ...SCORES], doc: "attention score, or none (the note's plain Seq2Seq)" },
  { name: 'translate_lr', section: 'translate', kind: 'number', default: 0.01, min: 1e-6, max: 1e6, doc: "Adam's learning rate (absurd rates allowed: the run diverges, is stopped and keeps its last good weights)" },
  { name: 'translate_speed', section: 'translate', kind: 'int', default: 4, min: 1, max: 200, doc: 'training steps per frame' },
  { name: 'translate_text', section: 'translate', kind: 'text', default: '咖哥 喜欢 小冰', maxLength: 200, doc: 'the sentence to translate' },
  { name: 'translate_beam', section: 'translate', kind: 'int', default: 1, min: 1, max: 8, doc: 'beam width (1: greedy)' },
  { name: 'translate_why', section: 'translate', kind: 'text', default: '', maxLength: 600, doc: "ask-why interventions, from 1, comma-separated: a3:2 (step 3's attention on source token 2), w1:likes (step 1 writes likes)" },
  // §3.3's collapsed panels (sections/panel.ts): open (1) or closed (0)
  { name: 'translate_open_settings', section: 'translate', kind: 'bool', default: false, doc: 'the model settings panel is open (task, cell, size, score, rate, beam)' },
  { name: 'translate_open_words', section: 'translate', kind: 'bool', default: false, doc: 'the panel of the words the model knows is open' },
  { name: 'translate_open_why', section: 'translate', kind: 'bool', default: false, doc: 'the ask-why panel is open (a link with translate_why opens it too)' },
  { name: 'translate_open_timeline', section: 'translate', kind: 'bool', default: false, doc: 'the training timeline panel is open' },
  { name: 'translate_open_pairs', section: 'translate', kind: 'bool', default: false, doc: 'the panel of your own sentence pairs is open (a link with translate_pairs opens it too)' },
  { name: 'translate_open_files', section: 'translate', kind: 'bool', default: false, doc: 'the model files panel is open (download, open a file)' },

  // §3.4/§3.5 QKV and self-attention
  { name: 'self_text', section: 'self', kind: 'text', default: '咖哥 喜欢 小冰', maxLength: 200, doc: 'the sentence (words separated by spaces)' },
  { name: 'self_d', section: 'self', kind: 'int', default: 4, min: 2, max: 64, doc: 'feature size' },
  { name: 'self_tie', section: 'self', kind: 'bool', default: false, doc: 'keys through the query map (W_K = W_Q, b_K = b_Q): the scores become symmetric' },
  { name: 'self_focus', section: 'self', kind: 'int', default: -1, min: -1, max: 15, doc: 'token whose attention is highlighted, and the query of the neuron view (-1: none; the neuron view then shows token 0)' },
  { name: 'self_key', section: 'self', kind: 'int', default: 0, min: 0, max: 15, doc: 'key token of the neuron view' },

  // §3.6 Multi-head
  { name: 'multihead_text', section: 'multihead', kind: 'text', default: '咖哥 喜欢 小冰', maxLength: 200, doc: 'the sentence (words separated by spaces)' },
  { name: 'multihead_d', section: 'multihead', kind: 'int', default: 4, min: 2, max: 64, doc: 'model size d' },
  { name: 'multihead_heads', section: 'multihead', kind: 'int', default: 2, min: 1, max: 16, doc: 'number of heads the reader chose (the largest count not above it that divides multihead_d is drawn, and the page says so)' },
  { name: 'multihead_open_combine', section: 'multihead', kind: 'bool', default: false, doc: 'the panel of how the heads combine (concatenation, output projection) is open' },
  { name: 'multihead_scale', section: 'multihead', kind: 'enum', default: 'shared', values: ['shared', 'per-head'], doc: "colour scale of the heads' heatmaps: one shared by all heads (colours compare across heads) or one per head" },
  // §4 The Transformer: an encoder-decoder Transformer trained live, every layer's and head's attention
  { name: 'transformer_task', section: 'transformer', kind: 'enum', default: 'dates', values: ['dates', 'zh-en'], doc: 'dates (24 formats → ISO, characters as tokens) or the grammar corpus (Chinese → English)' },
  { name: 'transformer_layers', section: 'transformer', kind: 'int', default: 1, min: 1, max: 6, doc: 'encoder layers (= decoder layers; one learns dates fastest, docs/transformer.md)' },
  { name: 'transformer_heads', section: 'transformer', kind: 'int', default: 4, min: 1, max: 16, doc: 'attention heads per layer (must divide transformer_dmodel)' },
  { name: 'transformer_dmodel', section: 'transformer', kind: 'int', default: 32, min: 4, max: 1024, doc: 'model size d_model (the core refuses a model over its memory limit, and says so)' },
  { name: 'transformer_dff', section: 'transformer', kind: 'int', default: 64, min: 4, max: 4096, doc: 'feed-forward size' },
  { name: 'transformer_norm_first', section: 'transformer', kind: 'bool', default: true, doc: 'pre-norm layers (1) or post-norm, nn.Transformer\'s default (0)' },
  { name: 'transformer_lr', section: 'transformer', kind: 'number', default: 0.01, min: 1e-6, max: 10, doc: "Adam's peak learning rate" },
  { name: 'transformer_warmup', section: 'transformer', kind: 'int', default: 200, min: 0, max: 100000, doc: 'warm-up steps of the learning-rate schedule (0: constant rate)' },
  { name: 'transformer_steps', section: 'transformer', kind: 'int', default: 2500, min: 10, max: 100000, doc: 'training steps of a run (a run estimated at well over a minute asks first)' },
  { name: 'transformer_text', section: 'transformer', kind: 'text', default: 'JAN 23, 2015', maxLength: 300, doc: 'the sentence or date to translate' },
  { name: 'transformer_zoom', section: 'transformer', kind: 'enum', default: 'none', values: ['none', 'encoder', 'decoder', 'cross'], doc: 'which kind of attention has a map enlarged (none: the grids only)' },
  { name: 'transformer_zoom_layer', section: 'transformer', kind: 'int', default: 1, min: 1, max: 6, doc: 'layer of the enlarged map' },
  { name: 'transformer_zoom_head', section: 'transformer', kind: 'int', default: 1, min: 1, max: 16, doc: 'head of the enlarged map' },
  { name: 'transformer_light_layer', section: 'transformer', kind: 'int', default: 1, min: 0, max: 6, doc: 'the cross-attention that lights the source tokens while decoding: this layer (0: the rollout over all layers, whose rows put only about half on the source; the default, layer 1, sums to 1)' },
  { name: 'transformer_light_head', section: 'transformer', kind: 'int', default: 0, min: 0, max: 16, doc: 'and this head (0: the mean of the heads)' },
  { name: 'transformer_why', section: 'transformer', kind: 'text', default: '', maxLength: 600, doc: "as translate_why, plus zc1.2 (zero head 2 of layer 1; c cross, d decoder self, e encoder self; @4: at step 4 only)" },
  { name: 'transformer_open_settings', section: 'transformer', kind: 'bool', default: false, doc: 'the model settings panel is open (task, sizes, norm, rate, warm-up, steps)' },
  { name: 'transformer_open_why', section: 'transformer', kind: 'bool', default: false, doc: 'the ask-why panel is open (a link with transformer_why opens it too)' },
  { name: 'transformer_open_compare', section: 'transformer', kind: 'bool', default: false, doc: 'the comparison with the recurrent models is open' },
  { name: 'transformer_open_positions', section: 'transformer', kind: 'bool', default: false, doc: 'the positional-encoding figure is open (我 爱 我 with and without positions, the sinusoid table)' },
  { name: 'transformer_open_files', section: 'transformer', kind: 'bool', default: false, doc: 'the model files panel is open (download, open a file)' },

  // §5 From attention to GPT: a character-level GPT trained on the Tang poems, and its generation step by step
  { name: 'gpt_steps', section: 'gpt', kind: 'int', default: 1000, min: 10, max: 5000, doc: 'training steps of a run (docs/gpt.md: at 1000, with the default drills, over nine samples in ten have the form and the held-out loss is well below the bigram baseline)' },
  { name: 'gpt_drills', section: 'gpt', kind: 'number', default: 0.75, min: 0, max: 0.95, doc: 'the share of the training windows that are form drills, a poem’s line breaks and punctuation around random characters (0: the poems alone, which the model then learns by heart); another value is another model, from step 0' },
  { name: 'gpt_prompt', section: 'gpt', kind: 'text', default: '床前', maxLength: 32, doc: 'the prompt the generation starts from (characters of the poems)' },
  { name: 'gpt_temperature', section: 'gpt', kind: 'number', default: 0.8, min: 0.01, max: 10, doc: 'sampling temperature (must be above 0)' },
  { name: 'gpt_top_k', section: 'gpt', kind: 'int', default: 20, min: 0, max: 5000, doc: 'draw among the k most likely characters only (0: every character)' },
  { name: 'gpt_top_p', section: 'gpt', kind: 'number', default: 1, min: 0.01, max: 1, doc: 'draw among the most likely characters whose probabilities sum to p (1: every character)' },
  { name: 'gpt_layer', section: 'gpt', kind: 'int', default: 2, min: 1, max: 2, doc: "layer of the attention shown for the generation's last step" },
  { name: 'gpt_head', section: 'gpt', kind: 'int', default: 1, min: 1, max: 4, doc: "head of the attention shown for the generation's last step" },
  { name: 'gpt_zero', section: 'gpt', kind: 'text', default: '', maxLength: 200, doc: 'heads zeroed in the generation, layer.head from 1, comma-separated: 1.2,2.4 (zero head 2 of layer 1 and head 4 of layer 2)' },
  { name: 'gpt_open_settings', section: 'gpt', kind: 'bool', default: false, doc: 'the sampling settings panel is open (temperature, top-k, top-p, steps)' },
  { name: 'gpt_open_heads', section: 'gpt', kind: 'bool', default: false, doc: 'the panel of what the heads learned is open (scores per head, zeroing a head)' },
  { name: 'gpt_open_text', section: 'gpt', kind: 'bool', default: false, doc: 'the own-text panel is open (paste or choose a text to train on)' },

  // §3.3 Your own sentence pairs (translate-pairs.ts)
  { name: 'translate_pairs', section: 'translate', kind: 'text', default: '', maxLength: 2000, doc: 'your own sentence pairs, source and target separated by \\t, pairs by \\n (a backslash as \\\\); a longer corpus is not put in the link (empty: the example pairs)' },
  { name: 'translate_tokenize', section: 'translate', kind: 'enum', default: 'words', values: ['words', 'chars'], doc: 'tokens of your own pairs: words (split at spaces) or characters (spaces dropped)' },
  { name: 'translate_held_out', section: 'translate', kind: 'int', default: 10, min: 0, max: 50, doc: 'percent of your own pairs held out (never trained on; the scores are measured on it)' },
  { name: 'translate_pairs_steps', section: 'translate', kind: 'int', default: 300, min: 10, max: 5000, doc: 'training steps on your own pairs' },
] as const satisfies readonly PropDef[];
