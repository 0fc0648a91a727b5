// `attention-lab` command line: dispatch, help, and the error policy. Every failure becomes ONE
// line `attention-lab: <message>` on stderr, in the command line's words (messages.mjs), and an
// exit code (2: usage, 1: runtime, 130: Ctrl-C);
// every Seq2Seq session is deleted before returning, whatever happened.
import { readFileSync } from 'node:fs';
import { COMMANDS, UsageError, RuntimeError, commandHelp, isCommand, mainHelp, parseCommand } from './options.mjs';
import { loadLab, release } from './session.mjs';
import { train } from './train.mjs';
import { translate, evaluate, info, exportModel } from './commands.mjs';
import { cliMessage } from './messages.mjs';
import { generate, trainPoems } from './poems.mjs';
/** @import { Print } from './format.mjs' */

/** @returns {string} */
function version() {
  return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
}

/** @type {Print} */
const print = (s) => process.stdout.write(`${s}\n`);

/** @param {string[]} argv */
async function run(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(mainHelp(version()));
    return 0;
  }
  if (command === '--version' || command === '-v') {
    print(version());
    return 0;
  }
  if (!isCommand(command)) {
    const what = command.startsWith('-') ? `unknown option '${command}' before the command` : `unknown command '${command}'`;
    throw new UsageError(`${what} (the commands are ${Object.keys(COMMANDS).join(', ')}; see 'attention-lab --help')`);
  }
  const parsed = parseCommand(command, rest);
  if (parsed.help) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  // the GPT's commands load the smaller 'gpt' module
  if (parsed.command === 'train' && parsed.values.task === 'poems') await trainPoems(await loadLab('gpt'), parsed.values, print, parsed.given);
  else if (parsed.command === 'train') await train(await loadLab(), parsed.values, print, parsed.given);
  else if (parsed.command === 'translate') await translate(await loadLab(), parsed.values, parsed.positionals, print, parsed.given);
  else if (parsed.command === 'evaluate') evaluate(await loadLab(), parsed.values, print);
  else if (parsed.command === 'export') exportModel(await loadLab(), parsed.values, print);
  else if (parsed.command === 'generate') generate(await loadLab('gpt'), parsed.values, parsed.positionals, print, parsed.given);
  else info(await loadLab(), parsed.values, print);
  return 0;
}

/**
 * Runs the CLI on `argv` (without node and the script); resolves to the exit code.
 * @param {string[]} argv
 */
export async function main(argv) {
  process.stdout.on('error', (/** @type {NodeJS.ErrnoException} */ e) => {
    if (e.code !== 'EPIPE') return;
    release(); // `attention-lab … | head`: the reader is gone, stop quietly
    process.exit(0);
  });
  try {
    return await run(argv);
  } catch (thrown) {
    // The API throws plain Errors for what it refuses (the core checks every input): a usage
    // mistake the CLI did not catch first. Any other kind of error is a bug of the CLI.
    // an exit code other than 1 or 2 comes with the error (train: 130 interrupted, 143 SIGTERM)
    const e = /** @type {Error & { exitCode?: number }} */ (thrown);
    const usage = e instanceof UsageError || e?.constructor === Error;
    const known = usage || e instanceof RuntimeError;
    const message = cliMessage(known ? e.message : `internal error: ${e?.message ?? e}`).replace(/\s*\n\s*/g, ' ');
    process.stderr.write(`attention-lab: ${message}\n`);
    if (!known && process.env.ATTENTION_LAB_DEBUG) process.stderr.write(`${e?.stack}\n`);
    return e.exitCode ?? (usage ? 2 : 1);
  } finally {
    release();
  }
}
