// A reader's own text file (§3.3's pairs, §5's text), read strictly: a file over the field's limit,
// one that is not UTF-8 or one holding a NUL byte (a binary file) is refused with a message that
// names the field by its label, the file and, for a bad byte, its line. Decoding leniently would
// turn every bad byte into U+FFFD and train on text the reader never wrote. The caller shows the
// message and keeps the field's text as it was.
import { fill, type Lang } from '../i18n';

// Here, not among the strings every widget downloads (i18n.ts): only the two fields that read a
// file load this module.
const FILE_STRINGS: Record<Lang, Record<'tooBig' | 'notUtf8' | 'nul' | 'unreadable', string>> = {
  en: {
    tooBig: '{label}: {name} is {bytes} bytes, over the limit of {max}',
    notUtf8: '{label}: {name} is not UTF-8 text (line {line}); save it as UTF-8',
    nul: '{label}: {name} is not a text file (a NUL byte on line {line})',
    unreadable: '{label}: {name} could not be read ({message})',
  },
  zh: {
    tooBig: '{label}：{name} 有 {bytes} 字节，超过上限 {max}',
    notUtf8: '{label}：{name} 不是 UTF-8 文本（第 {line} 行）；请存为 UTF-8',
    nul: '{label}：{name} 不是文本文件（第 {line} 行有空字节）',
    unreadable: '{label}：无法读取 {name}（{message}）',
  },
};

export type TextFileResult = { readonly text: string } | { readonly error: string };

const strict = new TextDecoder('utf-8', { fatal: true });

/** The 1-based line of the first byte sequence that is not UTF-8 (a newline byte never sits inside one). */
function firstBadLine(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strict.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line++;
    start = i + 1;
  }
  return line - 1;
}

/** The line (1-based) of `text`'s first NUL, or 0 when it has none. */
function nulLine(text: string): number {
  const at = text.indexOf('\0');
  return at < 0 ? 0 : text.slice(0, at).split('\n').length;
}

/** The text of `file` if it is UTF-8 text of at most `maxMiB` MiB, else the message, in `lang`, naming the field by `label`. */
export async function readTextFile(file: File, lang: Lang, label: string, maxMiB: number): Promise<TextFileResult> {
  const t = (key: keyof (typeof FILE_STRINGS)['en']): string => FILE_STRINGS[lang][key];
  const name = file.name;
  if (file.size > maxMiB * 1024 * 1024) {
    return { error: fill(t('tooBig'), { label, name, bytes: file.size.toLocaleString('en'), max: `${maxMiB} MiB` }) };
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    return { error: fill(t('unreadable'), { label, name, message: err instanceof Error ? err.message : String(err) }) };
  }
  let text: string;
  try {
    text = strict.decode(bytes);
  } catch {
    return { error: fill(t('notUtf8'), { label, name, line: firstBadLine(bytes) }) };
  }
  const nul = nulLine(text);
  if (nul > 0) return { error: fill(t('nul'), { label, name, line: nul }) };
  return { text };
}
