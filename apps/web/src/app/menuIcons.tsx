import {
  IconBook,
  IconBookFilled,
  IconChartPie,
  IconChartPieFilled,
  IconCircle,
  IconCircleFilled,
  IconHome,
  IconHomeFilled,
  IconSettings,
  IconSettingsFilled,
  IconUser,
  IconUserFilled,
  type IconProps,
  type TablerIcon,
} from '@tabler/icons-react';
import { createElement } from 'react';

/**
 * Icon keys of GET /api/menu (`icon` and `icon-active`) mapped to bundled Tabler icons:
 * outline for the normal state, the filled variant for the active one.
 */
export const menuIcons: Record<string, TablerIcon> = {
  home: IconHome,
  'home-active': IconHomeFilled,
  profile: IconUser,
  'profile-active': IconUserFilled,
  analytics: IconChartPie,
  'analytics-active': IconChartPieFilled,
  management: IconBook,
  'management-active': IconBookFilled,
  settings: IconSettings,
  'settings-active': IconSettingsFilled,
};

/** The icon of a key; unknown keys get a plain circle (filled when it is an '-active' key). */
export function menuIcon(key: string): TablerIcon {
  return menuIcons[key] ?? (key.endsWith('-active') ? IconCircleFilled : IconCircle);
}

/** Renders the icon of a menu key; `data-icon` carries the key (for tests and styling). */
export function MenuIcon({ iconKey, ...props }: IconProps & { iconKey: string }) {
  return createElement(menuIcon(iconKey), { ...props, 'data-icon': iconKey } as IconProps);
}
