import { Group, Pagination, Text } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { T } from './texts';
import { TableCard } from './ui';

/** What a paged list answers: one page of rows and where it stands. */
interface PageAnswer<Row> {
  items: Row[];
  total: number;
  page: number;
  per_page: number;
}

interface PagedQuery<Row> {
  data: PageAnswer<Row> | undefined;
  isPlaceholderData: boolean;
  isSuccess: boolean;
}

export interface PageState<Row> {
  rows: Row[];
  total: number;
  perPage: number;
  /** How many pages there are (at least one). */
  pages: number;
  /** The page the rows shown belong to (the next one may still load). */
  shownPage: number;
}

/**
 * The figures of one page of a paged list (the employees, the mail log). A page past the end — its
 * last rows gone elsewhere, or a stale page number — sends the list to the last page there is.
 */
export function usePage<Row>(
  query: PagedQuery<Row>,
  page: number,
  defaultPerPage: number,
  goTo: (page: number) => void,
): PageState<Row> {
  const rows = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const perPage = query.data?.per_page ?? defaultPerPage;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const shownPage = query.data?.page ?? page;

  const pastEnd = !query.isPlaceholderData && query.isSuccess && rows.length === 0 && total > 0 && page > pages;
  const latestGoTo = useRef(goTo);
  latestGoTo.current = goTo;
  useEffect(() => {
    if (pastEnd) latestGoTo.current(pages);
  }, [pastEnd, pages]);

  return { rows, total, perPage, pages, shownPage };
}

/** The table's card, dimmed and busy while the next page loads over the last one. */
export function PagedTableCard({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <TableCard>
      <div aria-busy={loading} style={{ opacity: loading ? 0.6 : 1 }}>
        {children}
      </div>
    </TableCard>
  );
}

interface PageNavProps {
  /** The navigation's name ('Страницы списка сотрудников', ...). */
  label: string;
  /** 'from–to из total' of the rows shown. */
  shown: (from: number, to: number, total: number) => string;
  state: PageState<unknown>;
  page: number;
  onChange: (page: number) => void;
  phone: boolean | undefined;
}

/** Under a list longer than a page: which rows are shown, and the page buttons. */
export function PageNav({ label, shown, state, page, onChange, phone }: PageNavProps) {
  const { total, perPage, pages, shownPage } = state;
  if (total <= perPage) return null;
  return (
    <Group component="nav" aria-label={label} justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        {shown((shownPage - 1) * perPage + 1, Math.min(shownPage * perPage, total), total)}
      </Text>
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onChange}
        siblings={phone ? 0 : 1}
        size="sm"
        radius="md"
        getItemProps={(n) => ({ 'aria-label': T.pageN(n) })}
        getControlProps={(control) => ({ 'aria-label': T.pageControl[control] })}
      />
    </Group>
  );
}
