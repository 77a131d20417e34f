import {
  IconBrandDiscord,
  IconBrandFacebook,
  IconBrandGithub,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandOkRu,
  IconBrandTelegram,
  IconBrandTiktok,
  IconBrandVk,
  IconBrandWhatsapp,
  IconBrandX,
  IconBrandYandex,
  IconBrandYoutube,
  IconLink,
  IconMail,
  IconWorld,
  type TablerIcon,
} from '@tabler/icons-react';

const socialIcons: [key: string, icon: TablerIcon][] = [
  ['telegram', IconBrandTelegram],
  ['vkontakte', IconBrandVk],
  ['vk', IconBrandVk],
  ['youtube', IconBrandYoutube],
  ['whatsapp', IconBrandWhatsapp],
  ['odnoklassniki', IconBrandOkRu],
  ['ok', IconBrandOkRu],
  ['twitter', IconBrandX],
  ['x', IconBrandX],
  ['facebook', IconBrandFacebook],
  ['instagram', IconBrandInstagram],
  ['linkedin', IconBrandLinkedin],
  ['github', IconBrandGithub],
  ['tiktok', IconBrandTiktok],
  ['discord', IconBrandDiscord],
  ['dzen', IconBrandYandex],
  ['yandex', IconBrandYandex],
  ['email', IconMail],
  ['mail', IconMail],
  ['site', IconWorld],
  ['web', IconWorld],
];

/** Tabler brand icon of a social-link icon key ('telegram', 'vk', 'youtube', ...); a link icon otherwise. */
export function socialIcon(key: string): TablerIcon {
  const k = key.trim().toLowerCase();
  const exact = socialIcons.find(([name]) => name === k);
  if (exact) return exact[1];
  // keys such as 'icon-telegram' or 'telegram.svg'; short keys ('vk', 'ok', 'x') only as whole words
  const words = k.split(/[^a-z]+/).filter(Boolean);
  const partial = socialIcons.find(([name]) => words.includes(name) || (name.length > 3 && k.includes(name)));
  return partial ? partial[1] : IconLink;
}

/**
 * Only web, mail and Telegram links are rendered; anything else (e.g. 'javascript:') is dropped. Wider
 * than the contract's `isSafeLink` for lesson blocks: the footer also offers 'mailto:' and 'tg:'.
 */
export function isOpenableSocialLink(link: string): boolean {
  try {
    const url = new URL(link, window.location.origin);
    return ['http:', 'https:', 'mailto:', 'tg:'].includes(url.protocol);
  } catch {
    return false;
  }
}
