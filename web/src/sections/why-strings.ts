// Text of §1, in English and in the note's Chinese (its own words for the two problems).
import type { Strings } from '../i18n';

export const WHY_STRINGS: Strings = {
  en: {
    'why.intro':
      'Two encoder-decoders learn to reverse strings of letters, side by side: the same cell, size, seed and batches; only one of them may look back at the source (attention). The chart shows how many output letters each gets right at each string length, while they learn.',
    'why.longDistance':
      'Long-distance dependency: the decoder reads only the encoder’s last state, so by the end it has forgotten the beginning (“read the back, forget the front”).',
    'why.compression':
      'Information compression: the context vector has a fixed size, and an ever longer input does not fit into a fixed number of numbers.',
    'why.start': 'Start training',
    'why.pause': 'Pause',
    'why.resume': 'Resume',
    'why.reset': 'Reset',
    'why.cell': 'Cell',
    'why.hidden': 'Hidden size',
    'why.maxLen': 'Longest string',
    'why.steps': 'Steps per model',
    'why.plain': 'plain Seq2Seq (fixed context)',
    'why.attention': 'with attention',
    'why.axis.length': 'input length (letters)',
    'why.axis.accuracy': 'token accuracy',
    'why.status.idle': 'Press start: both models train in the worker, taking turns.',
    'why.status.creating': 'Creating the two models…',
    'why.status.running': 'Step {step} of {total} · training loss: plain {plain}, attention {attention}',
    'why.status.done': 'Done: {total} steps each. Compare the two curves at the longest strings.',
    'why.status.paused': 'Paused at step {step} of {total}.',
    'why.chance': 'Chance level: 1 in 20 letters. Solid: token accuracy (teacher-forced); dotted: exact match (greedy decoding, whole string right).',
    'why.exact': 'exact match',
    'why.chartLabel': 'Line chart: token accuracy against input length, plain and attention models',
  },
  zh: {
    'why.intro':
      '两个编码器-解码器并排学习把一串字母倒过来：相同的单元、隐藏层大小、随机种子和批次，只有一个可以回看源序列（注意力）。图中是训练过程中，两者在每种长度上答对的输出字母比例。',
    'why.longDistance': '长距离依赖问题：读了后面，忘了前面——解码器只拿到编码器最后的隐藏状态。',
    'why.compression': '信息压缩问题：Seq2Seq的上下文向量是固定长度的，很难将无限的信息压缩到有限长度的向量中。',
    'why.start': '开始训练',
    'why.pause': '暂停',
    'why.resume': '继续',
    'why.reset': '重置',
    'why.cell': '循环单元',
    'why.hidden': '隐藏层大小',
    'why.maxLen': '最长序列',
    'why.steps': '每个模型的训练步数',
    'why.plain': '普通Seq2Seq（固定长度上下文）',
    'why.attention': '加入注意力',
    'why.axis.length': '输入长度（字母数）',
    'why.axis.accuracy': '词元准确率',
    'why.status.idle': '点击开始：两个模型在后台线程中轮流训练。',
    'why.status.creating': '正在创建两个模型…',
    'why.status.running': '第 {step} / {total} 步 · 训练损失：普通 {plain}，注意力 {attention}',
    'why.status.done': '完成：每个模型 {total} 步。比较两条曲线在最长序列处的差距。',
    'why.status.paused': '已暂停，第 {step} / {total} 步。',
    'why.chance': '随机猜测的准确率：1/20。实线：词元准确率（Teacher Forcing）；虚线：完全匹配（贪心解码，整串正确）。',
    'why.exact': '完全匹配',
    'why.chartLabel': '折线图：普通模型与注意力模型的词元准确率随输入长度的变化',
  },
};
