import {
  Button,
  Center,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  UnstyledButton,
  type ModalProps,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { errorStatus, messageOr } from '../../lib/errors';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { AppModal } from '../../shared/AppModal';
import { SearchInput } from '../../shared/SearchInput';
import { toastError } from '../../shared/toast';
import { T } from './texts';

/** Settings modals: at most 650 px wide, 500 ms close animation (docs/product.md §Settings). */
export const MODAL_SIZE = 650;
export const MODAL_TRANSITION = { duration: 500, exitDuration: 500 } as const;

type SettingsModalProps = Omit<ModalProps, 'size' | 'transitionProps'>;

export function SettingsModal(props: SettingsModalProps) {
  return <AppModal size={MODAL_SIZE} transitionProps={MODAL_TRANSITION} {...props} />;
}

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Red for deleting. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A confirmation over a settings modal (deleting, resetting a password). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  danger,
  busy,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={title}
      size={440}
      transitionProps={MODAL_TRANSITION}
      centered
      radius="lg"
      padding="lg"
      zIndex={220}
      styles={{ title: { fontWeight: 700 } }}
    >
      <Stack gap="lg">
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {T.cancel}
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={busy} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface ToolbarProps {
  search: string;
  onSearch: (value: string) => void;
  placeholder: string;
  addLabel: string;
  onAdd: () => void;
  addDisabled?: boolean;
  /** More buttons before the add button (the employees tab's export). */
  actions?: ReactNode;
}

/** The search box and the add button above each table. */
export function Toolbar({ search, onSearch, placeholder, addLabel, onAdd, addDisabled, actions }: ToolbarProps) {
  const add = (
    <Button
      leftSection={<IconPlus size={18} aria-hidden="true" />}
      onClick={onAdd}
      disabled={addDisabled}
      w={actions ? undefined : { base: '100%', xs: 'auto' }}
      flex={actions ? { base: '1 1 auto', xs: 'none' } : undefined}
    >
      {addLabel}
    </Button>
  );
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <SearchInput
        value={search}
        onChange={onSearch}
        placeholder={placeholder}
        w={{ base: '100%', xs: 360 }}
        radius="md"
        type="search"
      />
      {actions ? (
        // on a phone the buttons share the row, or take a row each when they do not fit
        <Group gap="sm" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
          {actions}
          {add}
        </Group>
      ) : (
        add
      )}
    </Group>
  );
}

/** The white card that holds a table. */
export function TableCard({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      {children}
    </Paper>
  );
}

/** Skeleton rows while a table loads. */
export function LoadingRows({ columns, rows = 5 }: { columns: number; rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <Table.Tr key={r} aria-hidden="true" data-testid="settings-loading-row">
          {Array.from({ length: columns }, (_, c) => (
            <Table.Td key={c}>
              <Skeleton h={c === 0 ? 28 : 14} w={c === 0 ? '70%' : '55%'} radius="sm" />
            </Table.Td>
          ))}
        </Table.Tr>
      ))}
    </>
  );
}

/** A full-width row of a table with a message (empty list, nothing found, error). */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns} py={40}>
        <Center>{children}</Center>
      </Table.Td>
    </Table.Tr>
  );
}

interface SettingsTableProps {
  /** The table's accessible name. */
  label: string;
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  /** The header cells. */
  head: ReactNode;
  /** The rows (a `DataTableBody`). */
  children: ReactNode;
}

/** The table of a settings tab: a header row on grey, rows that highlight on hover. */
export function SettingsTable({ label, minWidth, head, children }: SettingsTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label={label}>
        <Table.Thead bg="gray.0">
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface ListQuery {
  isPending: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
}

interface DataTableBodyProps<Row> {
  /** The list's query: loading, failing and the retry. */
  query: ListQuery;
  /** The rows left after the search. */
  rows: Row[];
  columns: number;
  search: string;
  /** The text of an empty list; while searching 'Ничего не найдено' stands instead. */
  emptyText: string;
  renderRow: (row: Row) => ReactNode;
}

/** A table's rows, or skeleton rows while loading, the error with a retry, the empty or nothing-found message. */
export function DataTableBody<Row>({ query, rows, columns, search, emptyText, renderRow }: DataTableBodyProps<Row>) {
  if (query.isPending) return <LoadingRows columns={columns} />;
  if (query.isError) {
    return (
      <MessageRow columns={columns}>
        <ErrorState onRetry={() => void query.refetch()} />
      </MessageRow>
    );
  }
  if (rows.length === 0) {
    return (
      <MessageRow columns={columns}>
        <EmptyState text={search.trim() ? T.nothingFound : emptyText} />
      </MessageRow>
    );
  }
  return <>{rows.map((row) => renderRow(row))}</>;
}

export function ErrorState({ onRetry }: { onRetry: () => void }) {
  return (
    <Stack align="center" gap="xs" role="alert">
      <ThemeIcon color="red" variant="light" size={44} radius="xl">
        <IconAlertTriangle size={24} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{T.loadError}</Text>
      <Button variant="light" size="xs" onClick={onRetry}>
        {T.retry}
      </Button>
    </Stack>
  );
}

export function EmptyState({ text }: { text: string }) {
  return (
    <Text c="dimmed" ta="center">
      {text}
    </Text>
  );
}

/** 'Доступ запрещен' for anyone but an admin (docs/product.md §Settings). */
export function AccessDenied() {
  return <AccessDeniedNotice title={T.accessDenied} hint={T.accessDeniedHint} />;
}

interface QueryLike {
  isError: boolean;
  error: unknown;
  errorUpdatedAt: number;
}

/** Shows an error toast once per failure of a query: the server's message, else `fallback`. */
export function useErrorToast(query: QueryLike, fallback: string, id: string, enabled = true) {
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (enabled && isError) toastError(messageOr(error, fallback), id);
    // errorUpdatedAt: once per failure, also after a failed retry
  }, [enabled, isError, error, errorUpdatedAt, fallback, id]);
}

interface ItemsQuery<Item> extends QueryLike {
  data?: Item[] | undefined;
}

/**
 * The state of a settings tab's list: the search and the rows it leaves, the load-error toast,
 * and whether the list was refused (403: 'Доступ запрещен' instead of the tab).
 */
export function useListTab<Item>(query: ItemsQuery<Item>, rowsOf: (items: Item[], search: string) => Item[]) {
  const forbidden = errorStatus(query.error) === 403;
  useErrorToast(query, T.loadError, 'settings-load-error', !forbidden);
  const [search, setSearch] = useState('');
  const { data } = query;
  const rows = useMemo(() => rowsOf(data ?? [], search), [rowsOf, data, search]);
  return { search, setSearch, rows, forbidden };
}

/** A modal that shows one item (null: a new one); the item stays while the modal closes. */
export function useItemModal<Item>() {
  const [opened, { open: show, close }] = useDisclosure(false);
  const [item, setItem] = useState<Item | null>(null);
  const open = (next: Item | null) => {
    setItem(next);
    show();
  };
  return { opened, item, open, close };
}

/** A table row that opens its item on click; the row's first cell holds an `OpenButton` for keyboards. */
export function rowOpenProps(onOpen: () => void) {
  return { onClick: onOpen, style: { cursor: 'pointer' } } as const;
}

/**
 * The focusable part of a clickable row: a plain-looking button whose click bubbles up to the row
 * (Enter and Space press it too), so screen readers and keyboards can open the item.
 */
export function OpenButton({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <UnstyledButton
      type="button"
      aria-label={label}
      style={{ display: 'block', width: '100%', textAlign: 'left', borderRadius: 'var(--mantine-radius-sm)' }}
    >
      {children}
    </UnstyledButton>
  );
}
