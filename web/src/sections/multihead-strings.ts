// Text of the §3.6 section; the Chinese follows the note (多头注意力仅仅是从更多维度对信息进行点积、缩放、Softmax、加权和而已).
import type { Strings } from '../i18n';

export const MULTIHEAD_STRINGS: Strings = {
  en: {
    'mh.intro':
      'Multi-head attention is the same dot product, scaling, softmax and weighted sum, done in several smaller subspaces at once. Q, K and V (d features) are split into h heads of d/h features; each head attends on its own; the heads’ outputs are concatenated back to d features and mixed by an output projection W_O.',
    'mh.text': 'Sentence (words separated by spaces)',
    'mh.d': 'Model size d',
    'mh.heads': 'Heads h',
    'mh.error.empty': 'the sentence is empty: type at least one word',
    'mh.error.tooMany': 'the sentence has {count} tokens; at most {max} fit the views',
    'mh.error.text': 'the sentence cannot be used: {reason}',
    'mh.error.heads': 'mh_heads = {heads} does not divide mh_d = {d}; choose one of {divisors}',
    'mh.head': 'Head {h}',
    'mh.head.weights': 'Head {h}: weights softmax(Q_h K_hᵀ/√{dh})',
    'mh.head.output': 'Head {h}: output (weights · V_h)',
    'mh.map.context': 'Heads concatenated: Concat(head₁ … head_h)',
    'mh.map.output': 'Output projection: Concat(…) W_Oᵀ + b_O',
    'mh.axis.features': 'features',
    'mh.axis.tokens': 'tokens',
    'mh.axis.keys': 'keys',
    'mh.axis.queries': 'queries',
    'mh.ok': 'Computed by the wasm core: {count} tokens, d = {d}, {heads} heads of {dh} features.',
  },
  zh: {
    'mh.intro':
      '理解了 QKV 注意力，那么多头注意力仅仅是从更多维度对信息进行点积、缩放、Softmax、加权和而已。Q、K、V（d 维）被拆分成 h 个头，每个头 d/h 维，各自计算注意力；各头的输出再拼接回 d 维，经过输出线性层 W_O 合并。',
    'mh.text': '句子（词之间用空格分隔）',
    'mh.d': '模型维度 d',
    'mh.heads': '头数 h',
    'mh.error.empty': '句子为空：请至少输入一个词',
    'mh.error.tooMany': '句子有 {count} 个词；最多只能显示 {max} 个',
    'mh.error.text': '无法使用这个句子：{reason}',
    'mh.error.heads': 'mh_heads = {heads} 不能整除 mh_d = {d}；请选择 {divisors} 之一',
    'mh.head': '第 {h} 个头',
    'mh.head.weights': '第 {h} 个头：权重 softmax(Q_h K_hᵀ/√{dh})',
    'mh.head.output': '第 {h} 个头：输出（权重 · V_h）',
    'mh.map.context': '拼接各头的输出：Concat(head₁ … head_h)',
    'mh.map.output': '输出线性层：Concat(…) W_Oᵀ + b_O',
    'mh.axis.features': '特征',
    'mh.axis.tokens': '词',
    'mh.axis.keys': '键',
    'mh.axis.queries': '查询',
    'mh.ok': '由 wasm 核心计算：{count} 个词，d = {d}，{heads} 个头，每个头 {dh} 维。',
  },
};
