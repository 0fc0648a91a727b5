// Every sentence of the article that tells the reader what to try or states what they will see,
// and the e2e test that does it on the default settings, in English and in Chinese, and checks the
// outcome. One entry per claim: `keys` are its string keys (the same key in both languages'
// tables), `file` the test file in this folder, and the test is `claim('<id>', …)` there.
// tests/web/claims-registry.test.mjs fails when a strings file gains a "Try this" prompt
// (a key with ".try.") or a sentence that reads like an outcome (OUTCOME below) that no entry
// lists, and when an entry names a key or a test that does not exist.

/** @typedef {{ id: string, section: string, keys: string[], file: string, what: string }} Claim */

/** @type {Claim[]} */
export const CLAIMS = [
  // §1 why attention
  { id: 'why-start', section: 'why', keys: ['why.try.start', 'why.status.done', 'why.chance'], file: 'why.test.mjs', what: 'after training, the plain model ends far below attention at the longest strings, near a fifth right, above the drawn chance line' },
  { id: 'why-front', section: 'why', keys: ['why.try.front', 'why.letters.title'], file: 'why.test.mjs', what: 'after the default run, the second chart shows the plain model right no more often than chance on the input\'s very first letters, several times as often on its last fifth, and attention high at every position' },
  { id: 'why-length', section: 'why', keys: ['why.try.length'], file: 'why.test.mjs', what: 'trained with Longest string 60, attention dips past 40 yet still far outscores plain at 60' },
  { id: 'why-cell', section: 'why', keys: ['why.try.cell', 'why.changed'], file: 'why.test.mjs', what: 'after the default (GRU) run, switching the cell to LSTM restarts both models and keeps the GRU run\'s token accuracy on the chart, named and with its numbers' },
  // §2 the core idea
  { id: 'idea-sharpness', section: 'idea', keys: ['idea.try.strength', 'idea.answer.even'], file: 'idea.test.mjs', what: 'sharpness 0 weighs every word alike and says so; 6 picks one word per fixed question; the reader’s row does not move' },
  { id: 'idea-yours', section: 'idea', keys: ['idea.try.yours', 'idea.answer.split'], file: 'idea.test.mjs', what: 'thing 0, place 2, time 2 splits the weight evenly between park and Saturday, ahead of every other word' },
  { id: 'idea-meaning', section: 'idea', keys: ['idea.meaning'], file: 'idea.test.mjs', what: 'changing only the reader’s question changes only its row of weights' },
  // §3.1–3.2 dot product
  { id: 'dot-hover', section: 'dot', keys: ['dot.try.hover'], file: 'dot.test.mjs', what: 'a focused weight cell lights its query and key rows and shows its arithmetic' },
  { id: 'dot-cell', section: 'dot', keys: ['dot.try.cell'], file: 'dot.test.mjs', what: '5 in q1’s first box moves q1’s largest weight onto the key with the largest positive first number' },
  { id: 'dot-scale', section: 'dot', keys: ['dot.try.scale', 'dot.sweep.intro'], file: 'dot.test.mjs', what: 'dot is sharper than scaled, the default; at d = 512 the unscaled max weight is above 0.9 and higher than at 64, the scaled one stays low' },
  // §3.4–3.5 QKV and self-attention
  { id: 'self-cell', section: 'self', keys: ['self.try.cell'], file: 'self.test.mjs', what: 'clicking a weight cell opens the neuron view on that query and key' },
  { id: 'self-repeat', section: 'self', keys: ['self.try.repeat'], file: 'self.test.mjs', what: '“我 爱 我” gives two identical rows of weights' },
  { id: 'self-hover', section: 'self', keys: ['self.try.hover'], file: 'self.test.mjs', what: 'the thickest line from a hovered word goes to its largest weight' },
  { id: 'self-tie', section: 'self', keys: ['self.try.tie', 'self.why3'], file: 'self.test.mjs', what: 'with W_K = W_Q ticked the scores are symmetric (小冰 on 喜欢 equals 喜欢 on 小冰); with separate maps, the default, they differ' },
  // §3.6 multi-head
  { id: 'multihead-heads', section: 'multihead', keys: ['multihead.try.heads', 'multihead.narrate.differ', 'multihead.narrate.same', 'multihead.narrate.shared'], file: 'multihead.test.mjs', what: 'the line under the controls names each head’s strongest link, and its verdict matches the weights' },
  { id: 'multihead-scale', section: 'multihead', keys: ['multihead.try.scale'], file: 'multihead.test.mjs', what: 'one scale per head stretches each head’s colours to its own range' },
  { id: 'multihead-repeat', section: 'multihead', keys: ['multihead.try.repeat'], file: 'multihead.test.mjs', what: '“我 爱 我”: in every head the two copies’ rows are identical' },
  // §3.3 encoder-decoder attention
  { id: 'translate-train', section: 'translate', keys: ['translate.try.zh-en.1'], file: 'translate.test.mjs', what: 'trained on the defaults, alignment accuracy is high and the attention model beats the plain one on the longest sentences' },
  { id: 'translate-decode', section: 'translate', keys: ['translate.try.zh-en.2'], file: 'translate.test.mjs', what: 'each lit source word is one its English word translates (met, saw: 了 counts); the time and place at the end look back at them' },
  { id: 'translate-why', section: 'translate', keys: ['translate.why.attr.saturated', 'translate.why.attr.debate'], file: 'translate.test.mjs', what: 'trained on the defaults, integrated gradients (shown first) ranks the source words in all but two rows at most (a “the”, <eos>) and puts the time and place words on their Chinese words; gradient × input is near 0 on most cells, and rows of ties get no ρ' },
  { id: 'translate-sharp', section: 'translate', keys: ['translate.try.zh-en.4'], file: 'translate.test.mjs', what: 'dot, the default: untrained, no weight of the first sentence’s map reaches 0.9; trained, more than half its rows put over 0.9 on one word' },
  { id: 'translate-score', section: 'translate', keys: ['translate.try.zh-en.3'], file: 'translate.test.mjs', what: 'cosine starts a new model; trained, its alignment only partly forms (60–80%: “about 70%”) while the first sentence’s weights all stay below 0.2' },
  { id: 'translate-note', section: 'translate', keys: ['translate.try.note.1', 'translate.try.note.2', 'translate.caption.note'], file: 'translate.test.mjs', what: 'the note’s recipe learns the five sentences by heart; its plain model does as well' },
  { id: 'translate-dates', section: 'translate', keys: ['translate.try.dates.1', 'translate.try.dates.2', 'translate.intro.dates'], file: 'translate.test.mjs', what: 'on dates, the year characters of the output look at the year of the input, in two formats' },
  // §4 the Transformer
  { id: 'transformer-intro', section: 'transformer', keys: ['transformer.intro'], file: 'transformer.test.mjs', what: 'the decoder has two kinds of attention (causal self and cross), the page draws three' },
  { id: 'transformer-decode', section: 'transformer', keys: ['transformer.try.1'], file: 'transformer.test.mjs', what: 'trained on the defaults, the year, month and day of the output light the year, month and day of the source' },
  { id: 'transformer-heads', section: 'transformer', keys: ['transformer.try.2'], file: 'transformer.test.mjs', what: 'heads 3 is refused by its field and the model stays' },
  { id: 'transformer-rollout', section: 'transformer', keys: ['transformer.try.3'], file: 'transformer.test.mjs', what: 'the rollout’s chips sum to about 0.5, one head’s and the default layer mean’s to 1; its largest chip is a smaller share than the layer mean’s' },
  { id: 'transformer-norm', section: 'transformer', keys: ['transformer.try.4'], file: 'transformer.test.mjs', what: 'post-norm starts a new model whose loss curve can be compared' },
  // §5 from attention to GPT
  { id: 'gpt-train', section: 'gpt', keys: ['gpt.try.train', 'gpt.chart.about', 'gpt.chart.about.tang', 'gpt.model.drills'], file: 'gpt.test.mjs', what: 'trained 1000 steps on the defaults (the regular Tang poems, three windows in four form drills), at least 7 of the 8 samples have the form, the bigram is worse than the unigram on the held-out poems and the held-out loss is 0.4–0.8 nats below the unigram and within 0.1 of its lowest (not learnt by heart), and both baselines are drawn' },
  { id: 'gpt-drills', section: 'gpt', keys: ['gpt.try.drills', 'gpt.status.overfit'], file: 'gpt.test.mjs', what: 'after that training, Form drills set to 0 in the settings panel starts a new model at step 0 (no drills in the model line); trained 1000 steps, fewer of its 8 samples have the form than with the drills, and its held-out loss, lowest at an earlier evaluation, has risen since by more than 0.1, which the status line says (overfitting)' },
  { id: 'gpt-heads', section: 'gpt', keys: ['gpt.try.heads', 'gpt.heads.verdict.none'], file: 'gpt.test.mjs', what: 'after that training, every score is under twice the even spread of its column (the table’s last row) and the table says no score reaches it; the largest score of the table is a line-start one; zeroing that head changes the sample, which keeps punctuation and a line break but loses the form, as the page marks it (the Try this names the line breaks)' },
  { id: 'gpt-temperature', section: 'gpt', keys: ['gpt.try.temperature'], file: 'gpt.test.mjs', what: 'after that training, the top candidate of the first step is drawn at temperature 0.2 with more than twice its probability at 0.8, and with less at 1.5 than at 0.8' },
];

/**
 * English text that reads like an outcome: a sentence with one of these must be a claim above or
 * be listed in NOT_CLAIMS with the reason it is not one.
 */
export const OUTCOME =
  /\b(watch|lights? up|stays?|sinks?|picks? out|reach(es)?|falls?|learns?|lines? up|fails?|wins?|saturates?|vanish(es)?|identical|sharper|jumps?|beats?)\b/i;

/** Keys whose English matches OUTCOME but that state no outcome of a demo (or are checked elsewhere). */
export const NOT_CLAIMS = {
  'why.intro': 'describes the set-up (two models learn to reverse strings); the outcome is why-start',
  'idea.intro': 'the idea in general, no outcome of the demo',
  'self.intro': 'describes the computation (the maps are random and untrained)',
  'multihead.intro': 'describes the computation',
  'translate.intro.zh-en': 'describes the corpus and the recipe',
  'translate.decode.waiting': 'an instruction before training, no outcome',
  'translate.decode.noSentence': 'an instruction while there is no sentence to translate, no outcome',
  'translate.timeline.empty': 'an instruction before training, no outcome',
  'translate.timeline.note': 'describes the recorded timeline; the alignment it shows is translate-train',
  'translate.score.def.general': 'defines the score (a formula and what W is), no outcome of a demo',
  'transformer.narrate.light': 'a status line naming the reader’s choice',
  'transformer.compare.title': 'a chart title',
  'transformer.compare.explain': 'says what the comparison measures; tests/e2e/transformer.test.mjs checks its numbers',
  'translate.why.same': 'a computed verdict of an intervention (tests/e2e/translate-why.test.mjs)',
  'multihead.link.hint': 'how to use the link between a head and the concatenation; tests/e2e/linked-views.test.mjs picks a cell and checks the same number in the other',
  'dot.panel.sweep': 'a panel title; softmax saturating as d grows is dot-scale',
  'translate.diagram.caption': 'how to use the diagram; tests/e2e/diagrams.test.mjs hovers, steps and clicks it and checks each part that lights up',
  'transformer.diagram.caption': 'how to use the diagram; tests/e2e/diagrams.test.mjs hovers a map and steps the decoding and checks each part that lights up',
  'self.narrate': 'computed from the weights shown',
  'gpt.intro': 'describes what a GPT is and the set-up; its outcome is gpt-train',
  'gpt.gen.about': 'defines temperature, top-k and top-p; what temperature does to the draw is gpt-temperature',
  'gpt.own.intro': "describes the field and its limit; that a refused text keeps the model is the journey test of tests/e2e/gpt.test.mjs (the reader's own text)",
};
