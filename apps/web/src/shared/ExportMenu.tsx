import type { ExportFormat } from '@lms/contract';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileSpreadsheet, IconFileTypeCsv, IconTableExport } from '@tabler/icons-react';

export const EXPORT_TEXTS = {
  button: 'Экспорт в Excel',
  xlsx: 'Excel (.xlsx)',
  csv: 'CSV',
} as const;

/** The browser's IANA time zone, so that exported times are the viewer's wall clock; undefined when unknown. */
function viewerTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The URL of an export with the screen's filters: empty filters are left out, the format and the
 * viewer's time zone are added. A plain GET with the session cookie, so a link downloads it.
 */
export function exportHref(
  path: string,
  format: ExportFormat,
  filters: Record<string, string | null | undefined>,
): string {
  const query = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(filters)) {
    if (value) query.set(key, value);
  }
  const tz = viewerTimeZone();
  if (tz) query.set('tz', tz);
  return `${path}?${query.toString()}`;
}

interface ExportMenuProps {
  /** The export route, e.g. '/api/analytics/export'. */
  path: string;
  /** The filters of what the screen shows, sent as query parameters. */
  filters: Record<string, string | null | undefined>;
  /** On a phone the button grows to share its row (in a wrapping flex row of buttons). */
  grow?: boolean;
  /** Further files of the same filters from other routes, after the two (e.g. the analytics per course). */
  more?: readonly { label: string; path: string; format: ExportFormat }[];
}

/** 'Экспорт в Excel': a menu of download links, Excel (.xlsx) and CSV (and any `more`), of what the screen shows. */
export function ExportMenu({ path, filters, grow = false, more = [] }: ExportMenuProps) {
  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          flex={grow ? { base: '1 1 auto', xs: 'none' } : undefined}
          leftSection={<IconTableExport size={18} aria-hidden="true" />}
          rightSection={<IconChevronDown size={16} aria-hidden="true" />}
        >
          {EXPORT_TEXTS.button}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {[
          { label: EXPORT_TEXTS.xlsx, path, format: 'xlsx' as const },
          { label: EXPORT_TEXTS.csv, path, format: 'csv' as const },
          ...more,
        ].map((m) => (
          <Menu.Item
            key={`${m.path} ${m.format}`}
            component="a"
            href={exportHref(m.path, m.format, filters)}
            download
            leftSection={
              m.format === 'csv' ? (
                <IconFileTypeCsv size={18} aria-hidden="true" />
              ) : (
                <IconFileSpreadsheet size={18} aria-hidden="true" />
              )
            }
          >
            {m.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
