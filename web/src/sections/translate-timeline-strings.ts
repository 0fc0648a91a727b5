// Text of §3.3's training timeline (translate-timeline.ts), in English and Chinese; loaded with
// the timeline's code.
import type { Strings } from '../i18n';

export const TIMELINE_STRINGS: Strings = {
  en: {
    'translate.timeline.title': 'How the alignment forms while training',
    'translate.timeline.empty': 'Train the model: the attention of the sentence above is recorded as it learns, and a slider here replays it.',
    'translate.timeline.note': 'The probe sentence “{probe}” was translated every {every} training steps: {frames} frames. Drag the slider, or replay them, to watch its attention line up.',
    'translate.timeline.note.none': 'The probe sentence “{probe}” was translated every {every} training steps ({frames} frames); this model has no attention, so only its translations are shown.',
    'translate.timeline.slider': 'Frame',
    'translate.timeline.replay': 'Replay',
    'translate.timeline.frame': 'Attention at step {step}',
    'translate.timeline.output': 'Step {step}: {output}',
    'translate.timeline.map': 'Attention of the probe sentence',
    'translate.timeline.axis.source': 'source words',
    'translate.timeline.axis.output': 'output words',
    'translate.timeline.json': 'Download the frames (JSON)',
    'translate.timeline.sheet': 'Download a contact sheet (PNG)',
    'translate.timeline.sheet.why': 'The contact sheet is one picture of up to 12 frames spread over the run, each with its step: the alignment forming at a glance. Any one frame is a PNG from the heatmap’s export menu.',
    'translate.timeline.sheet.title': 'How the attention on “{probe}” forms while training',
    'translate.timeline.error': 'Training timeline: {message}',
  },
  zh: {
    'translate.timeline.title': '训练中对齐是怎样形成的',
    'translate.timeline.empty': '训练模型：上面这句话的注意力会在学习过程中被记录下来，这里的滑块可以回放。',
    'translate.timeline.note': '观察句“{probe}”每 {every} 步训练被翻译一次：共 {frames} 帧。拖动滑块或回放，看它的注意力如何对齐。',
    'translate.timeline.note.none': '观察句“{probe}”每 {every} 步训练被翻译一次（共 {frames} 帧）；这个模型没有注意力，只显示它的译文。',
    'translate.timeline.slider': '帧',
    'translate.timeline.replay': '回放',
    'translate.timeline.frame': '第 {step} 步的注意力',
    'translate.timeline.output': '第 {step} 步：{output}',
    'translate.timeline.map': '观察句的注意力',
    'translate.timeline.axis.source': '源词',
    'translate.timeline.axis.output': '输出词',
    'translate.timeline.json': '下载所有帧（JSON）',
    'translate.timeline.sheet': '下载各帧总览图（PNG）',
    'translate.timeline.sheet.why': '各帧总览图是一张图，最多 12 帧，均匀取自整个训练过程，每帧标明步数：对齐的形成一目了然。单独一帧可从热图的导出菜单存为 PNG。',
    'translate.timeline.sheet.title': '训练中“{probe}”上的注意力如何形成',
    'translate.timeline.error': '训练时间线：{message}',
  },
};
