import type { ScormLaunch } from '@lms/contract';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOr } from '../../lib/errors';
import { ScormPlayer } from './ScormPlayer';
import { launchScorm, useRefreshScorm, useScormState } from './scormQueries';
import { ScormSections } from './ScormSections';
import { ScormStatusIcon } from './ScormStatus';
import { Loading } from './states';
import { LEARNING_TEXTS as T } from './texts';

interface ScormLessonProps {
  courseId: number;
  lessonId: number;
  name: string;
}

/**
 * A SCORM lesson's page body (docs/rules.md §SCORM packages): the package's status and score, its
 * sections when it has more than one, and the player. The package is launched once per visit of
 * the page; the lesson completes itself when the package reports it done, so there is no
 * 'complete' button.
 */
export function ScormLesson({ courseId, lessonId, name }: ScormLessonProps) {
  const state = useScormState(courseId, lessonId);
  const refresh = useRefreshScorm();
  const [launch, setLaunch] = useState<ScormLaunch | null>(null);
  const [launching, setLaunching] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const open = useCallback(
    async (sco?: string) => {
      setLaunching(true);
      setProblem(null);
      try {
        setLaunch(await launchScorm(courseId, lessonId, sco));
        // A launch marks the lesson started: the course's lists show it.
        void refresh();
      } catch (error) {
        setProblem(messageOr(error, T.scormLaunchError));
      } finally {
        setLaunching(false);
      }
    },
    [courseId, lessonId, refresh],
  );

  // Once per visit: a launch starts (or resumes) a session on the server, so neither a re-render
  // nor the development mode's second run of effects may launch again.
  const launched = useRef(false);
  useEffect(() => {
    if (launched.current) return;
    launched.current = true;
    void open();
  }, [open]);

  const scos = state.data?.scos ?? [];
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="lg">
        {state.isPending ? (
          <Loading />
        ) : state.isError ? (
          <Text c="red.8">{messageOr(state.error, T.scormStateError)}</Text>
        ) : (
          <Stack gap={4}>
            <Group gap="lg" wrap="wrap">
              <Group gap={6} wrap="nowrap" data-testid="scorm-status">
                <ScormStatusIcon status={state.data.status} />
                <Text fw={600}>
                  <Text span c="dimmed" fw={500}>
                    {`${T.scormStatusLabel}: `}
                  </Text>
                  {T.scormStatus[state.data.status]}
                </Text>
              </Group>
              {state.data.score === null ? null : (
                <Text fw={600} data-testid="scorm-score">
                  {T.scormScore(state.data.score)}
                </Text>
              )}
            </Group>
            {state.data.status === 'completed' ? null : (
              <Text size="sm" c="dimmed">
                {T.scormCompletesItself}
              </Text>
            )}
          </Stack>
        )}
      </Paper>

      {scos.length > 1 ? (
        <ScormSections
          scos={scos}
          current={launch?.sco ?? null}
          busy={launching}
          onOpen={(identifier) => void open(identifier)}
        />
      ) : null}

      {problem ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{problem}</Text>
            <Button size="xs" variant="default" onClick={() => void open(launch?.sco)} loading={launching}>
              {T.retry}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {launch ? (
        <ScormPlayer launch={launch} title={T.scormFrameTitle(name)} onCommit={() => void refresh()} />
      ) : launching ? (
        <Text c="dimmed" role="status">
          {T.scormLaunching}
        </Text>
      ) : null}
    </Stack>
  );
}
