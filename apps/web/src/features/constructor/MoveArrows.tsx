import { ActionIcon } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import classes from './Constructor.module.css';

interface MoveArrowsProps {
  upLabel: string;
  downLabel: string;
  /** First in its list (or the list may not be reordered now). */
  upDisabled: boolean;
  /** Last in its list (or the list may not be reordered now). */
  downDisabled: boolean;
  onMove: (delta: -1 | 1) => void;
  /** The module panel's small buttons. */
  size?: 'sm';
  iconSize?: number;
  /** Chevrons (modules, lessons, blocks) or arrows (questions). */
  icons?: 'chevron' | 'arrow';
}

/** The up and down buttons that reorder a module, lesson, test, block or question (docs/product.md §Constructor). */
export function MoveArrows({
  upLabel,
  downLabel,
  upDisabled,
  downDisabled,
  onMove,
  size,
  iconSize = 16,
  icons = 'chevron',
}: MoveArrowsProps) {
  const [Up, Down] = icons === 'chevron' ? [IconChevronUp, IconChevronDown] : [IconArrowUp, IconArrowDown];
  const arrow = { variant: 'subtle', color: 'gray', className: classes.arrow, size } as const;
  return (
    <>
      <ActionIcon {...arrow} onClick={() => onMove(-1)} disabled={upDisabled} aria-label={upLabel}>
        <Up size={iconSize} aria-hidden="true" />
      </ActionIcon>
      <ActionIcon {...arrow} onClick={() => onMove(1)} disabled={downDisabled} aria-label={downLabel}>
        <Down size={iconSize} aria-hidden="true" />
      </ActionIcon>
    </>
  );
}
