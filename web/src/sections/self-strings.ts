// Text of the §3.4/§3.5 section; the Chinese follows the note's wording (自注意力的本质是自己对自己的注意).
import { fill, type Strings } from '../i18n';
import { MAX_TOKENS, SentenceError } from './self-tokens';

export const SELF_STRINGS: Strings = {
  en: {
    'self.intro':
      'Self-attention is a sequence attending to itself. Each word gets an embedding x (a seeded random vector: the same word always gets the same one); three linear maps (weights W_Q, W_K, W_V and biases b_Q, b_K, b_V) turn it into a query q, a key k and a value v. These maps are random and untrained here, drawn from the seed like the embeddings: the weights show how the arithmetic works, not what a trained model would attend to. Query, key and value all come from the same x (the note’s X1), only through different linear maps. Each word’s output is the softmax-weighted sum of every word’s value.',
    'self.why3':
      'Why three maps? With W_K = W_Q, 小冰’s score on 喜欢 would equal 喜欢’s on 小冰. Separate maps let attention be one-way, and W_V lets what a word passes on differ from how it is matched.',
    'self.tie': 'Keys through the query’s map (W_K = W_Q)',
    'self.text': 'Sentence (words separated by spaces)',
    'self.d': 'Features d',
    'self.error.empty': 'the sentence is empty: type at least one word',
    'self.error.tooMany': 'the sentence has {count} tokens; at most {max} fit the views',
    'self.error.text': 'the sentence cannot be used: {reason}',
    'self.kept': '. The views still show the last sentence that fit, “{text}”.',
    'self.map.q': 'Queries Q = X W_Qᵀ + b_Q',
    'self.map.k': 'Keys K = X W_Kᵀ + b_K',
    'self.map.v': 'Values V = X W_Vᵀ + b_V',
    'self.map.scores': 'Scores Q·Kᵀ',
    'self.map.weights': 'Weights softmax(Q·Kᵀ/√d)',
    'self.map.output': 'Output = weights · V',
    'self.axis.features': 'features',
    'self.axis.tokens': 'tokens',
    'self.axis.keys': 'keys',
    'self.axis.queries': 'queries',
    'self.ok': 'Computed by the wasm core: {count} tokens, d = {d}.',
    'self.head.title': 'Where each word attends',
    'self.head.help':
      'Hover, tap or focus (Tab) a word on the left: the lines to the words on the right are as thick as its attention weights. With no word chosen, every line is drawn, faint where the weight is small.',
    'self.head.queries': 'Queries',
    'self.head.keys': 'Keys',
    'self.head.clear': 'Show all',
    'self.neuron.title': 'Neuron view: one query against one key, term by term',
    'self.neuron.query': 'Query word',
    'self.neuron.key': 'Key word',
    'self.neuron.product': 'q∘k',
    'self.neuron.sum': 'Σ q∘k = q·k',
    'self.neuron.scaled': '÷ √d (the core’s scaled score)',
    'self.neuron.weight': 'softmax weight (the core’s)',
    'self.neuron.help': 'Each feature’s product (row q∘k) adds to the score; purple cells are positive, orange negative, darker is larger in size.',
    'self.text.short': 'Sentence',
    'self.try.cell': 'Click (or press Enter on) any cell of the scores or weights: the neuron view opens on that query and key and shows q·k term by term.',
    'self.try.repeat': 'Type a word twice, e.g. “我 爱 我”: both copies get the same embedding, so their rows of the weights are identical.',
    'self.try.hover': 'Hover or tap a word in “Where each word attends”: the thickest line goes to the word it takes the most from.',
    'self.try.tie': 'Tick “W_K = W_Q”: Q·Kᵀ turns symmetric (小冰 on 喜欢 equals 喜欢 on 小冰); untick it and they differ.',
    'self.narrate': '“{query}” attends most to “{best}” ({w}); the neuron view shows its weight on “{key}”: {wk}.',
  },
  zh: {
    'self.intro':
      '自注意力的本质是自己对自己的注意。每个词有一个词向量 x（由随机种子生成：同一个词总是得到同一个向量），经过三个线性变换（权重 W_Q、W_K、W_V 和偏置 b_Q、b_K、b_V）得到查询 q、键 k 和值 v。这里的线性变换是随机的、未经训练，和词向量一样由随机种子生成：权重展示的是计算过程，而不是训练好的模型会关注什么。查询、键、值都来自同一个 x（笔记中的 X1），只是线性变换不同。每个词的输出，是所有词的值按 softmax 权重的加权和。',
    'self.why3':
      '为什么是三个映射？若 W_K = W_Q，小冰对喜欢的得分 q(小冰)·q(喜欢) 就等于喜欢对小冰的得分：任意两个词给彼此的得分都一样。各有各的映射，“谁关注谁”才可以是单向的；W_V 则让一个词传出去的内容，不同于它被匹配的方式。',
    'self.tie': '键与查询共用同一个映射（W_K = W_Q）',
    'self.text': '句子（词之间用空格分隔）',
    'self.d': '特征维度 d',
    'self.error.empty': '句子为空：请至少输入一个词',
    'self.error.tooMany': '句子有 {count} 个词；最多只能显示 {max} 个',
    'self.error.text': '无法使用这个句子：{reason}',
    'self.kept': '。各视图仍显示上一个能显示的句子：“{text}”。',
    'self.map.q': '查询 Q = X W_Qᵀ + b_Q',
    'self.map.k': '键 K = X W_Kᵀ + b_K',
    'self.map.v': '值 V = X W_Vᵀ + b_V',
    'self.map.scores': '原始权重（打分）Q·Kᵀ',
    'self.map.weights': '注意力权重 softmax(Q·Kᵀ/√d)',
    'self.map.output': '输出 = 权重 · V',
    'self.axis.features': '特征',
    'self.axis.tokens': '词',
    'self.axis.keys': '键',
    'self.axis.queries': '查询',
    'self.ok': '由计算内核算出：{count} 个词，d = {d}。',
    'self.head.title': '每个词关注哪里',
    'self.head.help': '将鼠标悬停在左侧的词上、用手指轻触它，或用 Tab 键聚焦：连向右侧各词的线条粗细与注意力权重成正比。未选择词时显示全部连线，权重越小越淡。',
    'self.head.queries': '查询',
    'self.head.keys': '键',
    'self.head.clear': '显示全部',
    'self.neuron.title': '神经元视图：一个查询与一个键，逐项相乘',
    'self.neuron.query': '查询词',
    'self.neuron.key': '键词',
    'self.neuron.product': 'q∘k',
    'self.neuron.sum': 'Σ q∘k = q·k（点积）',
    'self.neuron.scaled': '÷ √d（核心计算的缩放权重）',
    'self.neuron.weight': 'softmax 权重（核心计算）',
    'self.neuron.help': '先求每组对应元素的积（q∘k 一行），再求所有积之和，即为点积；紫色为正，橙色为负，颜色越深绝对值越大。',
    'self.text.short': '句子',
    'self.try.cell': '点击原始权重或注意力权重中的任意单元格（或按回车）：神经元视图会打开这对查询和键，逐项展示 q·k。',
    'self.try.repeat': '输入重复的词，例如“我 爱 我”：两个“我”的词向量相同，所以它们的权重行完全相同。',
    'self.try.hover': '在“每个词关注哪里”中悬停或轻触一个词：最粗的线指向它获取信息最多的词。',
    'self.try.tie': '勾选“W_K = W_Q”：Q·Kᵀ 变成对称的（小冰对喜欢等于喜欢对小冰）；取消勾选，两者又不同。',
    'self.narrate': '“{query}”最关注“{best}”（{w}）；神经元视图显示它对“{key}”的权重：{wk}。',
  },
};


/** The sentence's error in the page's language (SentenceError), or null. */
export function sentenceErrorText(t: (key: string) => string, err: unknown, prefix: 'self' | 'multihead'): string | null {
  if (!(err instanceof SentenceError)) return null;
  return err.problem === 'empty'
    ? t(`${prefix}.error.empty`)
    : fill(t(`${prefix}.error.tooMany`), { count: err.count, max: MAX_TOKENS });
}
