import { Anchor, Breadcrumbs } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { Link } from '../../shared/Link';
import { T } from './texts';

/**
 * 'Конструктор' / 'Настройка курса' above the constructor's pages. `current` marks the page shown;
 * on a lesson's or test's page neither is current and the constructor stays the strong link.
 */
export function ConstructorBreadcrumbs({
  courseId,
  current,
}: {
  courseId: number | string;
  current?: 'constructor' | 'settings';
}) {
  const onSettings = current === 'settings';
  return (
    <Breadcrumbs separatorMargin={6} aria-label={T.breadcrumbs}>
      <Anchor
        component={Link}
        to={`/management/constructor/${courseId}`}
        size="sm"
        {...(onSettings ? { c: 'dimmed' } : { fw: 600 })}
        {...(current === 'constructor' ? { 'aria-current': 'page' as const } : {})}
      >
        {T.constructor}
      </Anchor>
      <Anchor
        component={Link}
        to={`/management/constructor/${courseId}/settings`}
        size="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
        {...(onSettings ? { fw: 600, 'aria-current': 'page' as const } : { c: 'dimmed' })}
      >
        <IconSettings size={14} aria-hidden="true" />
        {T.courseSettings}
      </Anchor>
    </Breadcrumbs>
  );
}
