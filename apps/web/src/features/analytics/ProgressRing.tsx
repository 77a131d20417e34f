import { Box, RingProgress, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { clampPercent } from './logic';

/** Tooltips show and hide after 200 ms, above their target (docs/product.md §Analytics). */
export const TOOLTIP_DELAY = 200;

/** A hint shown above its target after 200 ms. */
export function Hint({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Tooltip label={label} position="top" openDelay={TOOLTIP_DELAY} closeDelay={TOOLTIP_DELAY} withArrow withinPortal>
      {children}
    </Tooltip>
  );
}

interface ProgressRingProps {
  value: number;
  /** 20 (small) or 40 (default, larger) px. */
  size?: 20 | 40;
  /** Error style (an expired course). */
  error?: boolean;
  /** A tooltip over the ring. */
  tooltip?: string;
  /** The ring's accessible name; the tooltip by default. */
  label?: string;
  /** false inside a button: the button takes the focus. */
  focusable?: boolean;
}

/** A progress ring clamped to 0–100 %, green when done, red in error style, brand otherwise. */
export function ProgressRing({ value, size = 40, error = false, tooltip, label, focusable = true }: ProgressRingProps) {
  const percent = clampPercent(value);
  const color = error ? 'red' : percent >= 100 ? 'green' : 'brand';
  const ring = (
    <Box
      component="span"
      role="img"
      aria-label={`${label ?? tooltip ?? ''} ${percent}%`.trim()}
      tabIndex={tooltip && focusable ? 0 : undefined}
      data-error={error || undefined}
      style={{ display: 'inline-flex', flex: 'none', borderRadius: '50%' }}
    >
      <RingProgress
        size={size}
        thickness={size === 20 ? 3 : 5}
        roundCaps={percent > 0}
        rootColor={error ? 'var(--mantine-color-red-1)' : undefined}
        sections={[{ value: percent, color }]}
        aria-hidden="true"
      />
    </Box>
  );
  return tooltip ? <Hint label={tooltip}>{ring}</Hint> : ring;
}
