import type { LearnerModule, ModuleItem } from '@lms/contract';
import { Accordion, Group, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconCircleCheckFilled,
  IconCircleDashed,
  IconClipboardCheck,
  IconFileText,
  IconPackage,
  IconProgress,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from '../../shared/Link';
import { CoverImage } from '../../shared/CourseCard';
import { isItemDone, itemTooltip, moduleOf, type ItemKey } from './logic';
import classes from './Learning.module.css';
import { LEARNING_TEXTS as T } from './texts';

interface ModuleListProps {
  modules: LearnerModule[];
  /** The item whose module opens by itself (the lesson shown, or the learner's next one). */
  current: ItemKey | null;
  /** The contents panel's smaller list: no pictures, tighter rows. */
  compact?: boolean;
  /** Called when an item is followed (the contents panel closes). */
  onNavigate?: () => void;
}

function StatusIcon({ item }: { item: ModuleItem }) {
  if (isItemDone(item)) return <IconCircleCheckFilled size={18} color="var(--mantine-color-green-7)" aria-hidden />;
  if (item.started_at || item.is_passed === false) {
    return <IconProgress size={18} color="var(--mantine-color-orange-7)" aria-hidden />;
  }
  return <IconCircleDashed size={18} color="var(--mantine-color-gray-5)" aria-hidden />;
}

function ItemRow({
  item,
  compact,
  isCurrent,
  onNavigate,
}: {
  item: ModuleItem;
  compact: boolean;
  isCurrent: boolean;
  onNavigate?: () => void;
}) {
  const tooltip = itemTooltip(item);
  const row = (
    <UnstyledButton
      component={Link}
      to={item.link}
      onClick={onNavigate}
      className={classes.item}
      data-compact={compact || undefined}
      data-current={isCurrent || undefined}
      aria-current={isCurrent ? 'page' : undefined}
    >
      {compact ? null : <CoverImage src={item.image} className={classes.itemImage} />}
      <Group gap={6} wrap="nowrap" className={classes.itemText}>
        {item.type === 'test' ? (
          <IconClipboardCheck size={16} aria-label={T.test} className={classes.typeIcon} />
        ) : item.kind === 'scorm' ? (
          <IconPackage size={16} aria-label={T.scorm} className={classes.typeIcon} />
        ) : (
          <IconFileText size={16} aria-label={T.lesson} className={classes.typeIcon} />
        )}
        <Text size={compact ? 'sm' : 'md'} fw={isCurrent ? 600 : 500} lineClamp={2}>
          {item.name}
        </Text>
      </Group>
      {item.kind === 'scorm' && item.score !== null && item.score !== undefined ? (
        <Text size="sm" fw={600} className={classes.score}>
          {T.scormItemScore(item.score)}
        </Text>
      ) : null}
      <StatusIcon item={item} />
    </UnstyledButton>
  );
  return tooltip ? (
    <Tooltip
      label={tooltip}
      position="top-start"
      withArrow
      openDelay={150}
      events={{ hover: true, focus: true, touch: false }}
    >
      {row}
    </Tooltip>
  ) : (
    row
  );
}

/** The course's modules as an accordion, one module open at a time (docs/product.md §Course page: 0.6 s). */
export function ModuleList({ modules, current, compact = false, onNavigate }: ModuleListProps) {
  const currentModule = moduleOf(modules, current);
  const [open, setOpen] = useState<string | null>(currentModule);
  useEffect(() => {
    if (currentModule !== null) setOpen(currentModule);
  }, [currentModule]);

  return (
    <Accordion
      value={open}
      onChange={setOpen}
      transitionDuration={600}
      variant="separated"
      radius="md"
      classNames={{ item: classes.module, content: classes.moduleContent }}
    >
      {modules.map((module) => (
        <Accordion.Item key={module.id} value={String(module.id)}>
          <Accordion.Control
            icon={
              module.status === 'complete' ? (
                <ThemeIcon color="green" variant="light" radius="xl" size={compact ? 24 : 28}>
                  <IconCircleCheckFilled size={16} aria-label={T.moduleComplete} />
                </ThemeIcon>
              ) : (
                <ThemeIcon color="blue" variant="light" radius="xl" size={compact ? 24 : 28}>
                  <IconProgress size={16} aria-label={T.moduleInProgress} />
                </ThemeIcon>
              )
            }
          >
            <Text fw={600} size={compact ? 'sm' : 'md'}>
              {module.name}
            </Text>
          </Accordion.Control>
          <Accordion.Panel>
            <div className={classes.items}>
              {module.lessonsList.map((item) => (
                <ItemRow
                  key={`${item.type}-${item.id}`}
                  item={item}
                  compact={compact}
                  isCurrent={current?.type === item.type && current.id === item.id}
                  onNavigate={onNavigate}
                />
              ))}
            </div>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
