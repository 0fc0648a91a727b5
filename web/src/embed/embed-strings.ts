// embed.html's own messages, in the page's language (a section's strings load only with the section).
import type { Strings } from '../i18n';

export const EMBED_STRINGS: Strings = {
  en: {
    'embed.notSetting': '{name}: not a setting',
    'embed.noView': 'the address must name one section with view=…, one of:',
    'embed.viewLine': 'view={view}: {title}',
  },
  zh: {
    'embed.notSetting': '{name}：不是可用的设置',
    'embed.noView': '地址中须用 view=… 指定一个栏目，可选：',
    'embed.viewLine': 'view={view}：{title}',
  },
};
