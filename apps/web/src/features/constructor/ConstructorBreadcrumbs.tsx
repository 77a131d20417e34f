import { Anchor, Breadcrumbs, Group, Text } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { Link } from '../../shared/Link';
import { T } from './texts';

/** The page a breadcrumb trail ends with: the constructor itself, the settings, or a lesson or test by name. */
export type ConstructorPlace = 'constructor' | 'settings' | { name: string };

/**
 * The links 'Конструктор' and 'Настройка курса' above the constructor's pages (docs/product.md §Constructor). The
 * trail names the page shown (issue 30): 'Конструктор › {the lesson's or test's name}' on an item's
 * page, 'Конструктор › Настройка курса' on the settings; elsewhere 'Настройка курса' stays a link
 * at the end of the row.
 */
export function ConstructorBreadcrumbs({
  courseId,
  current,
}: {
  courseId: number | string;
  current: ConstructorPlace;
}) {
  const onConstructor = current === 'constructor';
  const onSettings = current === 'settings';
  const settingsLink = (
    <Anchor
      component={Link}
      to={`/management/constructor/${courseId}/settings`}
      size="sm"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      {...(onSettings ? { fw: 600, c: 'dark', 'aria-current': 'page' as const } : { c: 'dimmed' })}
    >
      <IconSettings size={14} aria-hidden="true" />
      {T.courseSettings}
    </Anchor>
  );
  return (
    <Group component="nav" aria-label={T.breadcrumbs} justify="space-between" gap="xs" wrap="nowrap" miw={0}>
      <Breadcrumbs separatorMargin={6} miw={0} style={{ flexWrap: 'nowrap' }}>
        <Anchor
          component={Link}
          to={`/management/constructor/${courseId}`}
          size="sm"
          fw={onConstructor ? 600 : 500}
          style={{ flexShrink: 0 }}
          {...(onConstructor ? { 'aria-current': 'page' as const } : {})}
        >
          {T.constructor}
        </Anchor>
        {onSettings && settingsLink}
        {typeof current === 'object' && (
          <Text size="sm" fw={600} truncate="end" miw={0} aria-current="page" title={current.name}>
            {current.name || T.lessonNamePlaceholder}
          </Text>
        )}
      </Breadcrumbs>
      {!onSettings && <div style={{ flexShrink: 0 }}>{settingsLink}</div>}
    </Group>
  );
}
