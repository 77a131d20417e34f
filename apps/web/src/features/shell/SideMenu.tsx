import type { MenuItem } from '@lms/contract';
import { Skeleton, Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import { Link } from '../../shared/Link';
import { MenuIcon } from '../../app/menuIcons';
import { useMenu } from './queries';
import classes from './SideMenu.module.css';

function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function isExternal(link: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(link);
}

interface SideMenuItemProps {
  item: MenuItem;
  active: boolean;
  onNavigate?: (() => void) | undefined;
}

function SideMenuItem({ item, active, onNavigate }: SideMenuItemProps) {
  const iconKey = active ? item['icon-active'] : item.icon;
  const common = {
    className: classes.item,
    'data-active': active || undefined,
    'aria-current': active ? ('page' as const) : undefined,
    onClick: onNavigate,
  };
  const content = (
    <>
      <span className={classes.icon}>
        <MenuIcon iconKey={iconKey} size={22} stroke={1.7} aria-hidden="true" />
      </span>
      <div className={classes.body}>
        <span className={classes.label}>{item.name}</span>
      </div>
    </>
  );
  if (isExternal(item.link)) {
    return (
      <a href={item.link} {...common}>
        {content}
      </a>
    );
  }
  return (
    <Link to={item.link} {...common}>
      {content}
    </Link>
  );
}

interface SideMenuProps {
  /** Called after a click on an item (closes the menu on phones). */
  onNavigate?: () => void;
}

/**
 * Left side menu (docs/product.md §Shell): items of the menu call; the item whose link equals the current
 * path is highlighted and shows its active icon.
 */
export function SideMenu({ onNavigate }: SideMenuProps) {
  const { pathname } = useLocation();
  const { items, isLoading } = useMenu();
  const current = normalizePath(pathname);

  if (isLoading) {
    return (
      <Stack gap="xs" aria-hidden="true" data-testid="side-menu-loading">
        {[0, 1, 2, 3].map((n) => (
          <Skeleton key={n} h={40} radius="md" />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap={4}>
      {items.map((item) => (
        <SideMenuItem
          key={`${item.link}|${item.name}`}
          item={item}
          active={normalizePath(item.link) === current}
          onNavigate={onNavigate}
        />
      ))}
    </Stack>
  );
}
