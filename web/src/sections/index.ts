// The article's sections, in the note's order: §1, §2, §3.1–3.2, §3.3, §3.4–3.5, §3.6, §4. The shell
// (main.ts) mounts them from this list; the performance figures have their own page
// (performance.html, performance-page.ts).
import type { SectionModule } from '../section';
import { dotSection } from './dot';
import { ideaSection } from './idea';
import { multiheadSection } from './multihead';
import { selfSection } from './self';
import { translateSection } from './translate';
import { transformerSection } from './transformer';
import { whySection } from './why';

export const SECTIONS: SectionModule[] = [
  whySection,
  ideaSection,
  dotSection,
  translateSection,
  selfSection,
  multiheadSection,
  transformerSection,
];
