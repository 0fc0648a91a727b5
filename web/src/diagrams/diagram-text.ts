// What every diagram module needs when it mounts: its string table (the article-only one,
// sections/diagram-strings.ts, with the section's strings behind it) and its stylesheet, adopted
// into the section's document or shadow root.
import { adoptCss, styleRootOf } from '../adopt-css';
import type { Lang } from '../i18n';
import { DIAGRAM_STRINGS } from '../sections/diagram-strings';
import css from './diagram.css?inline';

export type T = (key: string) => string;

/** The diagrams' text in `lang`, then the section's (`t`). Adopts the diagrams' CSS where `host` lives. */
export function diagramText(host: HTMLElement, t: T, lang: Lang): T {
  const root = styleRootOf(host);
  if (root) adoptCss(root, css);
  const own = DIAGRAM_STRINGS[lang];
  return (key) => own[key] ?? DIAGRAM_STRINGS.en[key] ?? t(key);
}
