// The glossary: every term of the article a first-time reader may not know, in both languages.
// Where a term first appears in the article's prose (a paragraph or list item, in reading order),
// it becomes a button that shows its definition on hover, on keyboard focus and on a tap (the
// button's aria-describedby points at the definition, so screen readers hear it too); the whole
// list closes the article. The pass runs once the sections are mounted and never changes their
// text: it splits a text node around the term.
import type { Lang } from '../i18n';

export interface GlossaryEntry {
  readonly id: string;
  /** the term as the prose writes it (the English match ignores case) */
  readonly term: Record<Lang, string>;
  readonly definition: Record<Lang, string>;
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'seq2seq',
    term: { en: 'Seq2Seq', zh: 'Seq2Seq' },
    definition: {
      en: 'Sequence to sequence: an encoder network reads the input sequence, a decoder network writes the output sequence.',
      zh: '序列到序列：编码器网络读入输入序列，解码器网络写出输出序列。',
    },
  },
  {
    id: 'gru',
    term: { en: 'GRU', zh: 'GRU' },
    definition: {
      en: 'A recurrent cell with two gates (update and reset) that decide at each step how much of its state to keep; simpler than an LSTM.',
      zh: '门控循环单元：一种带两个门（更新门、重置门）的循环单元，每一步由门决定保留多少旧状态；比 LSTM 简单。',
    },
  },
  {
    id: 'lstm',
    term: { en: 'LSTM', zh: 'LSTM' },
    definition: {
      en: 'Long short-term memory: a recurrent cell with a separate memory and three gates (input, forget, output), made to carry information over long sequences.',
      zh: '长短期记忆网络：一种循环单元，有单独的记忆单元和三个门（输入门、遗忘门、输出门），用来把信息传得更远。',
    },
  },
  {
    id: 'adam',
    term: { en: 'Adam', zh: 'Adam' },
    definition: {
      en: 'The optimiser that trains every model here: gradient descent with a step size per parameter, scaled by running averages of the gradient and of its square.',
      zh: '训练这里每个模型所用的优化器：梯度下降，但每个参数的步长按梯度及其平方的滑动平均来调整。',
    },
  },
  {
    id: 'hidden-state',
    term: { en: 'hidden state', zh: '隐藏状态' },
    definition: {
      en: 'The vector a recurrent network carries from one step to the next: its memory of what it has read so far.',
      zh: '循环神经网络从一步带到下一步的向量：它对已读内容的记忆。',
    },
  },
  {
    id: 'context-vector',
    term: { en: 'context vector', zh: '上下文向量' },
    definition: {
      en: 'What the decoder gets from the encoder. Without attention: the encoder’s last hidden state, one fixed-size vector for the whole input. With attention: a weighted sum of all the encoder’s states, new at every output step.',
      zh: '解码器从编码器得到的信息。没有注意力时，是编码器最后的隐藏状态，整个输入只有这一个固定长度的向量；有注意力时，是编码器所有状态的加权和，每个输出步都重新计算。',
    },
  },
  {
    id: 'teacher-forcing',
    term: { en: 'teacher-forced', zh: '教师强制' },
    definition: {
      en: 'Scored while the decoder is fed the correct previous word (not its own guess): each word is judged on its own.',
      zh: '评分时给解码器喂入正确的上一个词（而不是它自己的猜测）：每个词单独评判。',
    },
  },
  {
    id: 'exact-match',
    term: { en: 'exact match', zh: '完全匹配' },
    definition: {
      en: 'The share of examples whose whole output, decoded greedily, equals the reference.',
      zh: '贪心解码出的整个输出与参考答案完全相同的样例所占比例。',
    },
  },
  {
    id: 'token',
    term: { en: 'token', zh: '词元' },
    definition: {
      en: 'One unit of a sequence as a model reads or writes it: here a word, a character or a letter.',
      zh: '模型读入或写出的序列中的一个单位：在这里是一个词、一个汉字或一个字母。',
    },
  },
  {
    id: 'wasm-core',
    term: { en: 'wasm core', zh: '计算内核' },
    definition: {
      en: 'The project’s C++ code for attention and the models, compiled to WebAssembly so that it runs in the browser; every number on the page comes from it.',
      zh: '本项目用 C++ 写的注意力与模型代码，编译后在浏览器中运行；页面上的每个数值都由它算出。',
    },
  },
  {
    id: 'softmax',
    term: { en: 'softmax', zh: 'softmax' },
    definition: {
      en: 'Turns a list of scores into weights that are positive and sum to 1: each score s becomes exp(s) divided by the sum of exp over the list, so the largest score gets the largest weight.',
      zh: '把一组分数变成都为正、加起来等于 1 的权重：每个分数 s 变成 exp(s) 除以所有分数的 exp 之和，分数最大的得到最大的权重。',
    },
  },
  {
    id: 'entropy',
    term: { en: 'entropy', zh: '熵' },
    definition: {
      en: 'Of a row of weights, how spread it is: −Σ w ln w, in nats; largest when all the weights are equal, 0 when one weight is 1.',
      zh: '一行权重有多分散：各权重都相等时最大，某个权重为 1 时为 0。单位“奈特”表示用自然对数计算。',
    },
  },
  {
    id: 'vanishing-gradient',
    term: { en: 'gradient vanishes', zh: '梯度消失' },
    definition: {
      en: 'When the softmax saturates, its weights hardly move when the scores move: the gradient that training sends back through it (the sweep’s ‖∂weights/∂scores‖) shrinks towards 0, and the scores stop learning.',
      zh: 'softmax 饱和时，原始权重变化，输出的权重几乎不变：训练经由它传回的梯度（表中的 ‖∂权重/∂原始权重‖）缩小到接近 0，打分部分就学不动了。',
    },
  },
  {
    id: 'alignment-accuracy',
    term: { en: 'alignment accuracy', zh: '对齐准确率' },
    definition: {
      en: 'Of the output words that translate a source word, the share whose largest attention weight falls on that source word.',
      zh: '在翻译某个源词的输出词中，最大注意力权重正好落在那个源词上的比例。',
    },
  },
  {
    id: 'beam-width',
    term: { en: 'beam width', zh: '束宽' },
    definition: {
      en: 'How many partial translations beam search keeps at each step; 1 is greedy decoding (always the most probable next word).',
      zh: '束搜索每一步保留的候选译文数；1 就是贪心解码（每步都取最可能的下一个词）。',
    },
  },
  {
    id: 'neuron-view',
    term: { en: 'neuron view', zh: '神经元视图' },
    definition: {
      en: 'One query against one key, feature by feature: the products q∘k, one per feature, that add up to their score.',
      zh: '一个查询对一个键，逐个特征展开：各项乘积 q∘k（每个特征一项）相加就是它们的得分。',
    },
  },
  {
    id: 'gradient-input',
    term: { en: 'gradient × input', zh: '梯度 × 输入' },
    definition: {
      en: 'An attribution: how much each source word’s embedding, times the gradient of the output word’s score with respect to it, pushes that output word.',
      zh: '一种归因方法：每个源词的词向量乘以输出词得分对它的梯度，衡量它对这个输出词的推动。',
    },
  },
  {
    id: 'integrated-gradients',
    term: { en: 'integrated gradients', zh: '积分梯度' },
    definition: {
      en: 'An attribution: gradient × input averaged along a path from a blank input to the real one, so that the attributions add up to the change of the score.',
      zh: '一种归因方法：沿着从空白输入到真实输入的路径，对“梯度 × 输入”取平均，使各词的归因加起来等于得分的变化。',
    },
  },
  {
    id: 'spearman',
    term: { en: 'Spearman', zh: '斯皮尔曼等级相关系数' },
    definition: {
      en: 'Spearman’s ρ: the correlation of two rankings, from −1 (opposite order) to 1 (the same order).',
      zh: '两个排序之间的相关性，从 −1（顺序相反）到 1（顺序相同）。',
    },
  },
  {
    id: 'd-model',
    term: { en: 'd_model', zh: '模型维度' },
    definition: {
      en: 'The size of the vector each token is carried in through the Transformer’s layers.',
      zh: '每个词元在 Transformer 各层中传递时所用向量的长度。',
    },
  },
  {
    id: 'feed-forward',
    term: { en: 'feed-forward', zh: '前馈' },
    definition: {
      en: 'A small two-layer network applied to each token on its own, with no mixing between positions: it transforms what attention gathered.',
      zh: '对每个词元单独作用的两层小网络，位置之间不混合：它加工注意力汇集来的信息。',
    },
  },
  {
    id: 'residual',
    term: { en: 'residual', zh: '残差' },
    definition: {
      en: 'A block’s input added back to its output (x + f(x)): each layer only adds a correction, and the signal and its gradients pass through a deep stack.',
      zh: '把一个块的输入加回到它的输出上（x + f(x)）：每层只需加上一个修正量，信号和梯度也能穿过很多层。',
    },
  },
  {
    id: 'pre-norm',
    term: { en: 'pre-norm', zh: '前置归一化' },
    definition: {
      en: 'LayerNorm (each token’s vector shifted to mean 0 and scaled to variance 1, then by learned weights) before each attention and feed-forward block, inside the residual branch (post-norm: after adding the residual, as in the original Transformer and PyTorch’s default). Pre-norm trains more easily.',
      zh: '层归一化（把每个词元的向量平移到均值 0、缩放到方差 1，再乘加可学习的权重）放在每个注意力块和前馈块之前、残差分支之内（后置归一化则放在加上残差之后，即最初的 Transformer 和 PyTorch 的默认做法）。前置归一化更容易训练。',
    },
  },
  {
    id: 'warm-up',
    term: { en: 'warm-up', zh: '预热' },
    definition: {
      en: 'The first training steps, over which the learning rate rises from 0 to its peak; it then decays.',
      zh: '训练最初的若干步：学习率从 0 逐渐升到峰值，之后再逐渐下降。',
    },
  },
  {
    id: 'rollout',
    term: { en: 'rollout', zh: '跨层累积注意力' },
    definition: {
      en: 'Attention rollout: the layers’ attention multiplied through the stack, each layer counted half attention and half each token keeping what it had. It says where the output ends up drawing from; at each step only about half of it reaches the source.',
      zh: '把各层的注意力逐层相乘，每层一半算注意力、一半算每个词元保留原有的内容。它表示输出最终从哪里取信息；每一步只有约一半落在源序列上。',
    },
  },
];

/** Elements whose text is prose a term may be defined in. */
export const PROSE = 'p, li';
/** Inside these, text is not prose (a control, a legend, a figure's data, a formula). */
export const NOT_PROSE = 'button, label, select, option, textarea, output, math, svg, canvas, [hidden], .lab-chart-legend, .gloss-list';

function termPattern(term: string, lang: Lang): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return lang === 'zh' ? new RegExp(escaped) : new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'i');
}

let tipIds = 0;

/** The term as a button that shows its definition (hover, focus, tap); `tip` is the definition. */
function termButton(text: string, entry: GlossaryEntry, lang: Lang): HTMLElement {
  const wrap = document.createElement('span');
  wrap.className = 'gloss';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'gloss-term lab-link'; // the design system's text-like button
  button.textContent = text;
  button.dataset.term = entry.id;
  const tip = document.createElement('span');
  tip.className = 'gloss-tip';
  tip.id = `gloss-tip-${++tipIds}`;
  tip.setAttribute('role', 'tooltip');
  tip.textContent = entry.definition[lang];
  button.setAttribute('aria-describedby', tip.id);
  button.setAttribute('aria-expanded', 'false');
  // a tap (or click) pins it open, a second one or Escape closes it; hover and focus show it by CSS
  button.addEventListener('click', () => button.setAttribute('aria-expanded', String(button.getAttribute('aria-expanded') !== 'true')));
  button.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') button.setAttribute('aria-expanded', 'false');
  });
  button.addEventListener('blur', () => button.setAttribute('aria-expanded', 'false'));
  wrap.append(button, tip);
  return wrap;
}

/** A text node the reader reads as prose (data in another language, marked lang, is not). */
function isProse(node: Text): boolean {
  const parent = node.parentElement;
  if (!parent?.closest(PROSE)) return false;
  if (parent.classList.contains('gloss-term')) return true;
  return !parent.closest(NOT_PROSE) && parent.closest('[lang]') === document.documentElement;
}

/**
 * Makes the first prose appearance of every glossary term under `root` (reading order) its
 * definition point, moving a definition when prose written later (a section's status line, a
 * panel opened later) puts the term earlier. Returns the ids of the terms defined.
 */
export function markTerms(root: HTMLElement, lang: Lang): string[] {
  const found: string[] = [];
  // one walk for all the terms; walked again only after a term moved (its text nodes split)
  const proseNodes = (): Text[] => {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) if (isProse(node)) nodes.push(node);
    return nodes;
  };
  let nodes = proseNodes();
  for (const entry of GLOSSARY) {
    const pattern = termPattern(entry.term[lang], lang);
    for (const node of nodes) {
      const parent = node.parentElement as HTMLElement;
      if (parent.classList.contains('gloss-term')) {
        if (parent.dataset.term !== entry.id) continue;
        found.push(entry.id); // its first appearance is already where it is defined
        break;
      }
      const match = pattern.exec(node.data);
      if (!match) continue;
      // an earlier definition point of this term, if any, goes back to plain text
      const old = root.querySelector<HTMLElement>(`.gloss-term[data-term="${entry.id}"]`)?.parentElement;
      old?.replaceWith(old.querySelector('.gloss-term')?.textContent ?? '');
      const after = node.splitText(match.index);
      after.data = after.data.slice(match[0].length);
      parent.insertBefore(termButton(match[0], entry, lang), after);
      found.push(entry.id);
      nodes = proseNodes();
      break;
    }
  }
  return found;
}

/**
 * Keeps the definitions at each term's first appearance while the sections write and rewrite
 * their prose: marks now, then at most every two seconds while the article changes. Returns a stop.
 */
export function keepTermsMarked(root: HTMLElement, lang: Lang): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  // at most once every two seconds (one walk of the article's text): a section that redraws while
  // training changes the article all the time
  const observer = new MutationObserver(() => {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      markTerms(root, lang);
    }, 2000);
  });
  markTerms(root, lang);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  return () => {
    observer.disconnect();
    if (timer !== null) clearTimeout(timer);
  };
}

/** The glossary as a list (the article's last section). */
export function glossaryList(lang: Lang): HTMLDListElement {
  const list = document.createElement('dl');
  list.className = 'gloss-list';
  for (const entry of GLOSSARY) {
    const dt = document.createElement('dt');
    dt.textContent = entry.term[lang];
    dt.id = `glossary-${entry.id}`;
    const dd = document.createElement('dd');
    dd.textContent = entry.definition[lang];
    list.append(dt, dd);
  }
  return list;
}
