import type { ScormScoState } from '@lms/contract';
import { Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useId } from 'react';
import classes from './Learning.module.css';
import { ScormStatusIcon } from './ScormStatus';
import { LEARNING_TEXTS as T } from './texts';

interface ScormSectionsProps {
  scos: ScormScoState[];
  /** The SCO open in the frame. */
  current: string | null;
  /** While a launch is under way the buttons wait. */
  busy: boolean;
  onOpen: (identifier: string) => void;
}

/** A multi-SCO package's items in the package's order, each with its status and score; each opens its SCO. */
export function ScormSections({ scos, current, busy, onOpen }: ScormSectionsProps) {
  const titleId = useId();
  return (
    <Paper withBorder p="md" radius="lg" component="nav" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} fz="md" id={titleId}>
          {T.scormSections}
        </Title>
        <Stack component="ol" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
          {scos.map((sco) => {
            const isCurrent = sco.identifier === current;
            return (
              <li key={sco.identifier}>
                <UnstyledButton
                  className={classes.item}
                  data-compact
                  data-current={isCurrent || undefined}
                  aria-current={isCurrent ? 'step' : undefined}
                  disabled={busy}
                  onClick={() => onOpen(sco.identifier)}
                  w="100%"
                >
                  <Group gap={8} wrap="nowrap" className={classes.itemText}>
                    <ScormStatusIcon status={sco.status} />
                    <Text size="sm" fw={isCurrent ? 600 : 500} lineClamp={2}>
                      {sco.title}
                    </Text>
                  </Group>
                  <Text size="sm" c="dimmed" style={{ flex: 'none' }}>
                    {sco.score === null
                      ? T.scormStatus[sco.status]
                      : `${T.scormStatus[sco.status]} · ${T.scormItemScore(sco.score)}`}
                  </Text>
                </UnstyledButton>
              </li>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}
