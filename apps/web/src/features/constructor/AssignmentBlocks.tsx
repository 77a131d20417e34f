import type { AssignmentHolder } from '@lms/contract';
import { ActionIcon, Badge, Button, Group, MultiSelect, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import classes from './Constructor.module.css';
import { AT } from './assignmentTexts';
import { ConfirmDialog } from './dialogs';

/** Applies one change of the section; resolves true when the server took it (its toast is shown). */
export type ApplyChange = (run: () => Promise<Changed>) => Promise<boolean>;

/** What the server answers a change with (the success text shown). */
export interface Changed {
  message: string;
}

interface BlockProps {
  title: string;
  count: number;
  /** The list of what is assigned, or the empty text. */
  children: ReactNode;
  /** The add control under the list. */
  add: ReactNode;
}

/** One of the three blocks: a heading with the count, the list, the add control. */
export function AssignmentBlock({ title, count, children, add }: BlockProps) {
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Group gap="xs">
        <Title order={3} fz="md" id={headingId}>
          {title}
        </Title>
        <Badge variant="light" color="gray" aria-hidden="true">
          {count}
        </Badge>
      </Group>
      {children}
      {add}
    </Stack>
  );
}

interface RowProps {
  name: string;
  /** What follows the name: a department's size, an employee's address and department. */
  detail: string;
  busy: boolean;
  onRemove: () => void;
}

/** An assigned department, group or employee, with its remove button. */
export function AssignedRow({ name, detail, busy, onRemove }: RowProps) {
  return (
    <Group component="li" className={classes.assignedRow} justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" className={classes.assignedName}>
        <Text span fw={600} inherit>
          {name}
        </Text>
        <Text span c="dimmed" inherit>
          {' · '}
          {detail}
        </Text>
      </Text>
      <Tooltip label={AT.removeConfirm} withArrow openDelay={300}>
        <ActionIcon variant="subtle" color="red.9" aria-label={AT.remove(name)} onClick={onRemove} disabled={busy}>
          <IconX size={16} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The list of assigned rows, or the text saying there are none. */
/** 'Назначить' next to an add control: enabled once something is chosen, spinning while that is sent. */
export function AssignButton({ chosen, busy, onClick }: { chosen: number; busy: boolean; onClick: () => void }) {
  return (
    <Button
      onClick={onClick}
      disabled={chosen === 0}
      loading={busy && chosen > 0}
      leftSection={<IconPlus size={16} aria-hidden="true" />}
    >
      {AT.assign}
    </Button>
  );
}

export function AssignedList({ empty, children }: { empty: string; children: ReactNode[] }) {
  if (children.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Stack component="ul" gap={0} className={classes.assignedList}>
      {children}
    </Stack>
  );
}

interface HolderTexts {
  title: string;
  empty: string;
  addLabel: string;
  placeholder: string;
  noneLeft: string;
  confirmTitle: string;
  confirmQuestion: (name: string) => string;
  confirmWarning: string;
}

interface HolderBlockProps {
  texts: HolderTexts;
  assigned: AssignmentHolder[];
  /** Every department (or group); those not assigned yet are offered. */
  choices: AssignmentHolder[];
  busy: boolean;
  apply: ApplyChange;
  add: (ids: number[]) => Promise<Changed>;
  remove: (id: number) => Promise<Changed>;
}

/**
 * Departments or study groups: the assigned ones with their sizes, a searchable multi-select of the
 * others and a confirmation before one is taken off (its people lose the course, not their progress).
 */
export function HolderBlock({ texts, assigned, choices, busy, apply, add, remove }: HolderBlockProps) {
  const [chosen, setChosen] = useState<string[]>([]);
  // The one asked about stays named while the dialog closes.
  const [removing, setRemoving] = useState<AssignmentHolder | null>(null);
  const [confirming, setConfirming] = useState(false);
  const assignedIds = new Set(assigned.map((h) => h.id));
  const offered = choices
    .filter((h) => !assignedIds.has(h.id))
    .map((h) => ({ value: String(h.id), label: h.name, members: h.members }));
  const members = new Map(offered.map((o) => [o.value, o.members]));

  const submit = async () => {
    if (await apply(() => add(chosen.map(Number)))) setChosen([]);
  };
  const confirmRemove = async () => {
    if (removing && (await apply(() => remove(removing.id)))) setConfirming(false);
  };

  return (
    <AssignmentBlock
      title={texts.title}
      count={assigned.length}
      add={
        <Group gap="xs" align="flex-end" className={classes.assignAdd}>
          <MultiSelect
            className={classes.assignField}
            label={texts.addLabel}
            placeholder={chosen.length === 0 ? texts.placeholder : undefined}
            data={offered}
            value={chosen}
            onChange={setChosen}
            searchable
            clearable
            nothingFoundMessage={texts.noneLeft}
            renderOption={({ option }) => (
              <span>
                {option.label}
                <Text span size="xs" c="dimmed">
                  {' · '}
                  {AT.members(members.get(option.value) ?? 0)}
                </Text>
              </span>
            )}
            comboboxProps={{ withinPortal: true }}
            disabled={busy && chosen.length === 0}
          />
          <AssignButton chosen={chosen.length} busy={busy} onClick={() => void submit()} />
        </Group>
      }
    >
      <AssignedList empty={texts.empty}>
        {assigned.map((h) => (
          <AssignedRow
            key={h.id}
            name={h.name}
            detail={AT.members(h.members)}
            busy={busy}
            onRemove={() => {
              setRemoving(h);
              setConfirming(true);
            }}
          />
        ))}
      </AssignedList>
      <ConfirmDialog
        opened={confirming}
        title={texts.confirmTitle}
        question={removing ? texts.confirmQuestion(removing.name) : ''}
        warning={texts.confirmWarning}
        confirmLabel={AT.removeConfirm}
        cancelLabel={AT.cancel}
        cancelFirst
        busy={busy}
        onConfirm={() => void confirmRemove()}
        onClose={() => setConfirming(false)}
      />
    </AssignmentBlock>
  );
}
