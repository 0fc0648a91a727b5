// The training timeline check both kinds of translator run (why.test.mjs, transformer-why.test.mjs),
// as tests/native/test_seq2seq_timeline.cpp does natively.
import assert from 'node:assert/strict';

/**
 * Sessions made by make(), the probe `text` (its tokens `tokens`): recorded every 3 steps within a
 * capacity of 4 over 30 steps, the timeline holds steps 0, 12 and 24 (0, 3, 6, 9 fill it; at 12 it
 * thins to 0, 6 and records every 6: 12, 18; at 24 to 0, 12 and every 12: 24), training and the saved
 * session are bit-identical with and without it, the last frame is the probe's translation by a twin
 * trained 24 steps (each word's attention onto the source: the Transformer's rollout), the export is
 * one JSON, and a stopped timeline records no more.
 */
export function expectTimelineOfTraining(make, text, tokens) {
  const a = make();
  const b = make();
  const twin = make();
  try {
    a.recordTimeline(text, { every: 3, capacity: 4 });
    const before = a.timeline();
    assert.deepEqual(before.frames.map((f) => f.step), [0]);
    assert.equal(before.recording, true);
    assert.deepEqual(before.probe.map((t) => t.text), tokens);
    assert.deepEqual(a.train(30).losses, b.train(30).losses, 'training is bit-identical with a timeline');
    assert.deepEqual(a.save(), b.save());
    const tl = a.timeline();
    assert.deepEqual(tl.frames.map((f) => f.step), [0, 12, 24]);
    assert.equal(tl.every, 12);
    const last = tl.frames.at(-1);
    assert.equal(last.attention.shape[1], tokens.length);
    twin.train(24);
    const t = twin.translate(text);
    assert.deepEqual(last.output, t.steps.map((s) => s.token));
    assert.deepEqual(Array.from(last.attention.data), t.steps.flatMap((s) => Array.from(s.attention)));
    const json = JSON.parse(a.exportTimeline());
    assert.deepEqual(json.frames.map((f) => f.step), [0, 12, 24]);
    assert.ok(Array.isArray(json.frames[2].attention.data));
    a.stopTimeline();
    a.train(12);
    assert.equal(a.timeline().frames.length, 3, 'stopped: no more frames');
    assert.equal(a.timeline().recording, false);
  } finally {
    [a, b, twin].forEach((m) => m.delete());
  }
}
