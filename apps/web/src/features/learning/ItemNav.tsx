import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconList } from '@tabler/icons-react';
import type { ItemRef } from '@lms/contract';
import type { ReactNode } from 'react';
import { Link } from '../../shared/Link';
import { itemLink } from './logic';
import { LEARNING_TEXTS as T } from './texts';

/** The previous or next item's button; disabled when there is none. */
function NeighbourButton({
  courseId,
  item,
  label,
  icon,
}: {
  courseId: number;
  item: ItemRef | null;
  label: string;
  icon: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      {item ? (
        <ActionIcon component={Link} to={itemLink(courseId, item)} variant="default" size="lg" aria-label={label}>
          {icon}
        </ActionIcon>
      ) : (
        <ActionIcon disabled variant="default" size="lg" aria-label={label}>
          {icon}
        </ActionIcon>
      )}
    </Tooltip>
  );
}

/** Previous, contents and next buttons of the lesson and test pages (docs/product.md §Lesson page). */
export function ItemNav({
  courseId,
  previous,
  next,
  onContents,
}: {
  courseId: number;
  previous: ItemRef | null;
  next: ItemRef | null;
  onContents: () => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      <NeighbourButton courseId={courseId} item={previous} label={T.previous} icon={<IconChevronLeft size={18} />} />
      <Button variant="default" leftSection={<IconList size={18} />} onClick={onContents}>
        {T.contents}
      </Button>
      <NeighbourButton courseId={courseId} item={next} label={T.next} icon={<IconChevronRight size={18} />} />
    </Group>
  );
}
