// Text of §3.3's training timeline (translate-timeline.ts), in English and Chinese; loaded with
// the timeline's code.
import type { Strings } from '../i18n';

export const TIMELINE_STRINGS: Strings = {
  en: {
    'tl.title': 'How the alignment forms while training',
    'tl.empty': 'Train the model: the attention of the sentence above is recorded as it learns, and a slider here replays it.',
    'tl.note': 'The probe sentence “{probe}” was translated every {every} training steps: {frames} frames. Drag the slider, or replay them, to watch its attention line up.',
    'tl.note.none': 'The probe sentence “{probe}” was translated every {every} training steps ({frames} frames); this model has no attention, so only its translations are shown.',
    'tl.slider': 'Frame',
    'tl.replay': 'Replay',
    'tl.frame': 'Attention at step {step}',
    'tl.output': 'Step {step}: {output}',
    'tl.map': 'Attention of the probe sentence',
    'tl.axis.source': 'source words',
    'tl.axis.output': 'output words',
    'tl.json': 'Download the frames (JSON)',
    'tl.sheet': 'Download a contact sheet (PNG)',
    'tl.sheet.why': 'The contact sheet is one picture of up to 12 frames spread over the run, each with its step: the alignment forming at a glance. Any one frame is a PNG from the heatmap’s export menu.',
    'tl.sheet.title': 'How the attention on “{probe}” forms while training',
    'tl.error': 'Training timeline: {message}',
  },
  zh: {
    'tl.title': '训练中对齐是怎样形成的',
    'tl.empty': '训练模型：上面这句话的注意力会在学习过程中被记录下来，这里的滑块可以回放。',
    'tl.note': '观察句“{probe}”每 {every} 步训练被翻译一次：共 {frames} 帧。拖动滑块或回放，看它的注意力如何对齐。',
    'tl.note.none': '观察句“{probe}”每 {every} 步训练被翻译一次（共 {frames} 帧）；这个模型没有注意力，只显示它的译文。',
    'tl.slider': '帧',
    'tl.replay': '回放',
    'tl.frame': '第 {step} 步的注意力',
    'tl.output': '第 {step} 步：{output}',
    'tl.map': '观察句的注意力',
    'tl.axis.source': '源词',
    'tl.axis.output': '输出词',
    'tl.json': '下载所有帧（JSON）',
    'tl.sheet': '下载各帧总览图（PNG）',
    'tl.sheet.why': '各帧总览图是一张图，最多 12 帧，均匀取自整个训练过程，每帧标明步数：对齐的形成一目了然。单独一帧可从热图的导出菜单存为 PNG。',
    'tl.sheet.title': '训练中“{probe}”上的注意力如何形成',
    'tl.error': '训练时间线：{message}',
  },
};
