// The article's sections, in the note's order: §1, §3.1–3.2, §3.3, §3.4–3.5, §3.6, then the
// performance figures. The shell (main.ts) mounts them from this list.
import type { SectionModule } from '../section';
import { dotSection } from './dot';
import { multiheadSection } from './multihead';
import { performanceSection } from './performance';
import { selfSection } from './self';
import { translateSection } from './translate';
import { whySection } from './why';

export const SECTIONS: SectionModule[] = [
  whySection,
  dotSection,
  translateSection,
  selfSection,
  multiheadSection,
  performanceSection,
];
