// Text of §2, the note's core idea: attend to the key information, and different questions attend
// to different parts of the same sentence. The Chinese follows the note's wording (关注关键信息).
import type { Strings } from '../i18n';

export const IDEA_STRINGS: Strings = {
  en: {
    'idea.intro':
      'The core idea of attention: when answering a question, do not weigh every word of the input equally, look at the words that matter for that question. The same sentence gives different answers to different questions because each question attends to different words.',
    'idea.sentence': 'The sentence (each word is a key, and also its value)',
    'idea.setup':
      'Each word and each question is a vector of five features a reader would use: person, place, time, action, thing. A question’s weight on a word is softmax(q·k/√5) over the words, computed by the wasm core: the scaled dot-product attention of §3.2.',
    'idea.feature.person': 'person',
    'idea.feature.place': 'place',
    'idea.feature.time': 'time',
    'idea.feature.action': 'action',
    'idea.feature.thing': 'thing',
    'idea.q.who': 'Who?',
    'idea.q.where': 'Where?',
    'idea.q.when': 'When?',
    'idea.q.what': 'What?',
    'idea.q.yours': 'Your question',
    'idea.q.yoursShort': 'Yours',
    'idea.sentence.full': '(“KaGe reads novels in the park on Saturday”)',
    'idea.strength': 'How sharply the questions ask (query length)',
    'idea.yours': 'Your question, feature by feature',
    'idea.yours.field': 'Your question, {feature}',
    'idea.map': 'Attention weights: questions (rows) over the words (columns)',
    'idea.axis.words': 'words (keys)',
    'idea.axis.questions': 'questions (queries)',
    'idea.answer': '{question} attends most to “{word}” ({w})',
    'idea.try.strength': 'Drag the sharpness to 0: every word gets 0.2, a question without content attends to everything equally. Drag it to 6: each question picks one word.',
    'idea.try.yours': 'Give your question place 2 and time 2: its weight splits between “park” and “Saturday”, the two words that answer it.',
    'idea.meaning':
      'What it means: the keys stay the same, only the query changes, and the weights follow it. This is what the decoder of §3.3 does at every output word: its state is the question, the encoder’s words are the keys.',
    'idea.ok': 'Computed by the wasm core; each row of the weights sums to 1.',
  },
  zh: {
    'idea.intro':
      '注意力机制的核心思想：回答一个问题时，不必平等地看待输入中的每个词，而是关注与这个问题相关的关键信息。同一句话，对不同的问题给出不同的答案，因为不同的问题关注不同的词。',
    'idea.sentence': '句子（每个词是一个键，同时也是它的值）',
    'idea.setup':
      '每个词和每个问题都是五个特征组成的向量：人物、地点、时间、动作、事物。问题对一个词的权重是对所有词计算的 softmax(q·k/√5)，由 wasm 内核计算，即 3.2 节的缩放点积注意力。',
    'idea.feature.person': '人物',
    'idea.feature.place': '地点',
    'idea.feature.time': '时间',
    'idea.feature.action': '动作',
    'idea.feature.thing': '事物',
    'idea.q.who': '谁？',
    'idea.q.where': '在哪里？',
    'idea.q.when': '什么时候？',
    'idea.q.what': '做什么？',
    'idea.q.yours': '你的问题',
    'idea.q.yoursShort': '你的问题',
    'idea.sentence.full': '（“咖哥周六在公园读小说”）',
    'idea.strength': '问题的明确程度（查询向量的长度）',
    'idea.yours': '你的问题，逐个特征设置',
    'idea.yours.field': '你的问题·{feature}',
    'idea.map': '注意力权重：问题（行）对各个词（列）',
    'idea.axis.words': '词（键）',
    'idea.axis.questions': '问题（查询）',
    'idea.answer': '{question} 最关注“{word}”（{w}）',
    'idea.try.strength': '把明确程度拖到 0：每个词都得到 0.2，没有内容的问题平等地关注所有词。拖到 6：每个问题只挑出一个词。',
    'idea.try.yours': '把你的问题的“地点”设为 2、“时间”设为 2：权重分给了“公园”和“周六”，正是回答它的两个词。',
    'idea.meaning':
      '这意味着：键不变，只有查询在变，权重随查询而变。3.3 节的解码器在生成每个输出词时做的正是这件事：它的状态就是问题，编码器的各个词就是键。',
    'idea.ok': '由 wasm 核心计算；权重的每一行之和为 1。',
  },
};
