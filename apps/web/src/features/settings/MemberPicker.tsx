import { Box, Checkbox, Group, Input, Paper, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { groupByFirstLetter, matchesSearch } from './logic';
import { T } from './texts';

export interface MemberChoice {
  id: number;
  name: string;
  email?: string;
}

interface MemberPickerProps {
  users: MemberChoice[];
  value: number[];
  onChange: (value: number[]) => void;
  loading?: boolean;
  disabled?: boolean;
}

/**
 * Members of a study group: the users grouped by the first letter of the name, Latin letters
 * first (docs/product.md §Settings), with a search box and a tick per user.
 */
export function MemberPicker({ users, value, onChange, loading, disabled }: MemberPickerProps) {
  const [search, setSearch] = useState('');
  const labelId = useId();
  const chosen = useMemo(() => new Set(value), [value]);
  const groups = useMemo(
    () => groupByFirstLetter(users.filter((u) => matchesSearch(search, u.name, u.email))),
    [users, search],
  );

  const toggle = (id: number, on: boolean) => {
    onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id));
  };

  return (
    <Input.Wrapper
      label={T.members}
      labelProps={{ id: labelId }}
      description={T.membersChosen(value.length)}
      inputWrapperOrder={['label', 'input', 'description']}
    >
      <Paper withBorder radius="md" mt={4} role="group" aria-labelledby={labelId}>
        <Box p="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            placeholder={T.searchMembers}
            aria-label={T.searchMembers}
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            size="sm"
            variant="filled"
            disabled={disabled}
          />
        </Box>
        <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
          {loading ? (
            <Stack gap="xs" p="sm" aria-busy="true">
              {[0, 1, 2, 3].map((n) => (
                <Skeleton key={n} h={20} w={`${70 - n * 10}%`} />
              ))}
            </Stack>
          ) : groups.length === 0 ? (
            <Text c="dimmed" size="sm" ta="center" py="lg">
              {T.noMembers}
            </Text>
          ) : (
            <Stack gap={0} pb={4}>
              {groups.map((group) => (
                <div key={group.letter} role="group" aria-label={group.letter} data-testid="member-letter">
                  <Text
                    size="xs"
                    fw={700}
                    c="brand.7"
                    px="sm"
                    py={4}
                    bg="gray.0"
                    style={{ position: 'sticky', top: 0, zIndex: 1 }}
                  >
                    {group.letter}
                  </Text>
                  {group.users.map((user) => (
                    <Group key={user.id} px="sm" py={6} gap="xs" wrap="nowrap">
                      <Checkbox
                        checked={chosen.has(user.id)}
                        onChange={(e) => toggle(user.id, e.currentTarget.checked)}
                        disabled={disabled}
                        label={
                          <span>
                            {user.name}
                            {user.email ? (
                              <Text span size="xs" c="dimmed" ml={6}>
                                {user.email}
                              </Text>
                            ) : null}
                          </span>
                        }
                        styles={{ body: { alignItems: 'center' }, labelWrapper: { minWidth: 0 } }}
                      />
                    </Group>
                  ))}
                </div>
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
      </Paper>
    </Input.Wrapper>
  );
}
