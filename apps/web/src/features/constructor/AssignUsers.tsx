import type { AssignmentCandidate, AssignmentPerson } from '@lms/contract';
import { Group, MultiSelect, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import classes from './Constructor.module.css';
import {
  AssignButton,
  AssignedList,
  AssignedRow,
  AssignmentBlock,
  type ApplyChange,
  type Changed,
} from './AssignmentBlocks';
import { normalizeQuery, textMatches } from '../../lib/search';
import { useCandidates } from './assignmentQueries';
import { AT } from './assignmentTexts';

/** A search waits this long after the last key before it is sent. */
const SEARCH_DEBOUNCE_MS = 250;

/** What follows an employee's name: their address, and their department when they have one. */
const personDetail = (p: Pick<AssignmentPerson, 'email' | 'department'>) =>
  p.department ? `${p.email}, ${p.department}` : p.email;

interface UsersBlockProps {
  courseId: number;
  users: AssignmentPerson[];
  total: number;
  busy: boolean;
  apply: ApplyChange;
  add: (ids: number[]) => Promise<Changed>;
  remove: (id: number) => Promise<Changed>;
}

/**
 * Employees the course is assigned to directly. Whom to add is searched on the server (name or
 * address, at most 20 at a time): a company may have thousands of people, more than a list holds.
 * Those who have it already are shown but cannot be chosen again.
 */
export function UsersBlock({ courseId, users, total, busy, apply, add, remove }: UsersBlockProps) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const candidates = useCandidates(courseId, debounced, opened || debounced !== '');
  const found = useMemo(() => new Map((candidates.data ?? []).map((c) => [String(c.id), c])), [candidates.data]);
  const waiting = candidates.isFetching || search.trim() !== debounced;
  // Until the answer for what is typed comes, the last one is narrowed here, so that the list never
  // shows people who plainly do not match (the server's answer then replaces it).
  const stale = candidates.isPlaceholderData || search.trim() !== debounced;
  const query = normalizeQuery(search);
  const data = (candidates.data ?? [])
    .filter((c: AssignmentCandidate) => !stale || textMatches(query, c.name, c.email))
    .map((c) => ({ value: String(c.id), label: c.name, disabled: c.assigned }));

  const submit = async () => {
    if (await apply(() => add(chosen.map(Number)))) setChosen([]);
  };

  return (
    <AssignmentBlock
      title={AT.users}
      count={total}
      add={
        <Group gap="xs" align="flex-end" className={classes.assignAdd}>
          <MultiSelect
            className={classes.assignField}
            label={AT.addUsers}
            placeholder={chosen.length === 0 ? AT.findUsers : undefined}
            data={data}
            value={chosen}
            onChange={setChosen}
            searchable
            clearable
            searchValue={search}
            onSearchChange={setSearch}
            onDropdownOpen={() => setOpened(true)}
            // The server has searched already; every answer it gave is shown.
            filter={({ options }) => options}
            nothingFoundMessage={waiting ? AT.searching : AT.nobodyFound}
            renderOption={({ option }) => {
              const person = found.get(option.value);
              return (
                <span>
                  {option.label}
                  {person && (
                    <Text span size="xs" c="dimmed">
                      {' · '}
                      {person.assigned ? AT.alreadyAssigned : personDetail(person)}
                    </Text>
                  )}
                </span>
              );
            }}
            comboboxProps={{ withinPortal: true }}
            disabled={busy && chosen.length === 0}
          />
          <AssignButton chosen={chosen.length} busy={busy} onClick={() => void submit()} />
        </Group>
      }
    >
      <AssignedList empty={AT.noUsers}>
        {users.map((u) => (
          <AssignedRow
            key={u.id}
            name={u.name}
            detail={personDetail(u)}
            busy={busy}
            onRemove={() => void apply(() => remove(u.id))}
          />
        ))}
      </AssignedList>
      {total > users.length && (
        <Text size="xs" c="dimmed">
          {AT.usersShown(users.length, total)}
        </Text>
      )}
    </AssignmentBlock>
  );
}
