// The article's address: a place (a section or heading) and the settings (state.ts), apart from
// the state table so that the widgets, which read no address, do not download it.
import { isSettingName } from '../state';

/**
 * An address's hash as a place and settings: the place is the element id named by a part with no
 * "=" that is no setting's name (`#section-gpt`, `#section-gpt-title`: the sections and their
 * headings, which the page's skip links point at), so `#section-gpt&lang=zh` opens §5 in Chinese;
 * the settings are the other parts, the app state.
 */
export function splitAddress(hash: string): { place: string | null; settings: string } {
  let place: string | null = null;
  const settings: string[] = [];
  for (const part of hash.replace(/^#/, '').split('&')) {
    // (a bare `<setting>_hide` is a flag, as in `#view=dot&controls_hide`)
    const word = /^[A-Za-z][\w-]*$/.test(part) && !isSettingName(part) && !part.endsWith('_hide');
    if (place === null && word) place = part;
    else if (part !== '') settings.push(part);
  }
  return { place, settings: settings.join('&') };
}
