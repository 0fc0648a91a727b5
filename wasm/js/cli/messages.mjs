// One table from the core's messages to the command line's words. The core (and so the JS API,
// which passes its messages on unchanged) names the API's keys and counts steps and tokens from 0;
// the command line names its flags and counts from 1, as its tables do. Every message the CLI
// prints goes through cliMessage(), so a row added here serves every command.
// Each row: [what the core / API says, what the command line says instead].
/** @type {[RegExp, string | ((match: string, ...groups: string[]) => string)][]} */
export const MESSAGES = [
  // your own pairs
  [/set heldOut to 0\b/g, 'use --held-out 0'],
  [/option heldOut \(the share of pairs held out\)/g, '--held-out'],
  [/config\.heldOut\b/g, '--held-out'],
  [/config\.tokenize\b/g, '--tokenize'],
  // the GPT (--task poems, generate)
  [/^heldOut must be\b/, '--held-out must be'],
  [/a smaller heldOut\b/g, 'a smaller --held-out'],
  [/\bblockSize\b/g, '--block-size'],
  [/\btopK must\b/g, '--top-k must'],
  [/\btopP must\b/g, '--top-p must'],
  [/\btry a smaller learningRate or a warmup\b/g, 'try a smaller --lr or a --warmup'],
  [/^drills need windows "poem"/, '--drills need --windows "poem"'],
  // decoding
  [/\bbeam must\b/g, '--beam must'],
  [/\blengthAlpha\b/g, '--length-alpha'],
  [/leave out beam\b/g, 'leave out --beam'],
  // interventions: "intervention 0 (force-token at step 0)" is the user's --force-token 1:…
  [/intervention (\d+) \(([\w-]+) at step (\d+)\)/g, (_m, _i, kind, step) => `--${kind} at step ${Number(step) + 1}`],
  [/intervention (\d+) \(([\w-]+)\)/g, (_m, _i, kind) => `--${kind}`],
  [/the step must be in \[0, (\d+)\)(?: \(decoding stops after maxLength steps\))?/g, (_m, n) => `the step must be from 1 to ${n} (decoding stops after --max-length steps)`],
  [/which ended after (\d+) steps? \(0 … \d+\)/g, (_m, n) => `which ended after ${n} step${n === '1' ? '' : 's'} (1 … ${n})`],
  // after the step rows, which say it their own way
  [/\bmaxLength\b/g, '--max-length'],
  // model files
  [/^save\(\): a Transformer has one naming, the reference module's \(names 'project'\); 'book' is the book's recurrent translator$/,
    "--names book does not apply to a Transformer: its state-dict names are the reference module's (leave out --names)"],
  [/^evaluate\(\): a model loaded from \.safetensors has no task; use teacherForced\(source, target\)$/,
    'a model read from .safetensors has no task and no held-out set: evaluate it on your own pairs with --pairs FILE'],
  [/^train\(\): a model loaded from \.safetensors has no task to train on.*$/,
    'a model read from .safetensors has no task to train on: translate it, or train it in PyTorch'],
];

/**
 * The core's / API's message in the command line's words.
 * @param {unknown} message
 */
export function cliMessage(message) {
  let m = String(message);
  // replace() has one overload for a string and one for a function
  for (const [core, cli] of MESSAGES) m = typeof cli === 'string' ? m.replace(core, cli) : m.replace(core, cli);
  return m;
}

/**
 * The message of what a call threw: the API and the CLI throw Errors.
 * @param {unknown} e
 */
export const errorMessage = (e) => /** @type {Error} */ (e).message;
