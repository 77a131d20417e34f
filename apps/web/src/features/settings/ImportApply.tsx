import { appliedMessage, type PeopleBatch } from '@lms/contract';
import { Alert, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck, IconPlayerPlay, IconReload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { errorStatus, isNetworkError, messageOr, TEXT_NETWORK_ERROR } from '../../lib/errors';
import { usePublicConfig } from '../../shared/config';
import { Link } from '../../shared/Link';
import { toastSuccess } from '../../shared/toast';
import { useApplyImport } from './importQueries';
import { IMPORT_TEXTS as I } from './importTexts';
import { formatSentAt } from './mailLog';
import { ConfirmDialog } from './ui';

/** A moving bar for work whose progress cannot be measured: no value, so screen readers hear 'busy'. */
export function BusyBar({ label }: { label: string }) {
  return (
    <Stack gap={4} maw={560}>
      <Progress.Root size="lg" radius="xl">
        <Progress.Section value={100} animated withAria={false} role="progressbar" aria-label={label} />
      </Progress.Root>
      <Text size="xs" c="dimmed" aria-live="polite">
        {label}
      </Text>
    </Stack>
  );
}

interface ImportApplyProps {
  batch: PeopleBatch;
  /** Back to an empty form. */
  onAnother: () => void;
  /** Back to the form with the same file and choices, to check them again. */
  onAgain: () => void;
}

/**
 * Step 4: 'Применить изменения' (a confirmation first when people would be deleted), the bar while
 * the server writes, then what was done. A 409 means the company changed since the check (or the
 * batch was applied meanwhile): the dry run no longer holds, so the one way on is to check again.
 */
export function ImportApply({ batch, onAnother, onAgain }: ImportApplyProps) {
  const apply = useApplyImport(batch.id);
  const [confirming, setConfirming] = useState(false);
  const hintId = useId();
  const { create, update, delete: deletes, error: errors } = batch.counts;
  const changes = create + update + deletes;

  if (batch.status === 'applied') return <Applied batch={batch} onAnother={onAnother} />;

  const run = async () => {
    setConfirming(false);
    try {
      toastSuccess((await apply.mutateAsync()).message);
    } catch {
      // shown below the button
    }
  };
  const problem = apply.isError
    ? isNetworkError(apply.error)
      ? TEXT_NETWORK_ERROR
      : messageOr(apply.error, I.applyError)
    : null;

  if (errorStatus(apply.error) === 409) {
    return (
      <Alert
        color="red"
        variant="light"
        radius="lg"
        icon={<IconAlertCircle size={20} aria-hidden="true" />}
        role="alert"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{problem}</Text>
          <Button onClick={onAgain} leftSection={<IconReload size={18} aria-hidden="true" />}>
            {I.uploadAgain}
          </Button>
        </Stack>
      </Alert>
    );
  }

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        {apply.isPending ? (
          <BusyBar label={I.applying} />
        ) : (
          <Group gap="sm" wrap="wrap">
            <Button
              w={{ base: '100%', xs: 'auto' }}
              onClick={() => (deletes > 0 ? setConfirming(true) : void run())}
              disabled={changes === 0}
              aria-describedby={changes === 0 ? hintId : undefined}
              leftSection={<IconPlayerPlay size={18} aria-hidden="true" />}
            >
              {I.apply}
            </Button>
            {batch.source === 'directory' ? null : (
              <Button
                w={{ base: '100%', xs: 'auto' }}
                variant="default"
                onClick={onAnother}
                leftSection={<IconReload size={18} aria-hidden="true" />}
              >
                {I.another}
              </Button>
            )}
          </Group>
        )}
        {changes === 0 ? (
          <Text size="sm" c="dimmed" id={hintId}>
            {errors > 0 ? I.nothingButErrors : I.nothingToApply}
          </Text>
        ) : null}
        {problem ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
            {problem}
          </Alert>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={I.confirmTitle}
        message={I.confirmDelete(deletes)}
        confirmLabel={I.confirmButton}
        danger
        onConfirm={() => void run()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

/** The applied batch: what was done and when, and the ways on. */
function Applied({ batch, onAnother }: Pick<ImportApplyProps, 'batch' | 'onAnother'>) {
  const timeZone = usePublicConfig().data?.time_zone;
  return (
    <Alert color="green" variant="light" radius="lg" icon={<IconCircleCheck size={20} aria-hidden="true" />}>
      <Stack gap="sm">
        {/* in the body's colour: the title's green on the light green is below 4.5:1 */}
        <Text size="sm" fw={600}>
          {appliedMessage(batch.counts)}
        </Text>
        {batch.applied_at ? <Text size="sm">{I.appliedAt(formatSentAt(batch.applied_at, timeZone))}</Text> : null}
        {batch.options.send_welcome && batch.counts.create > 0 ? <Text size="sm">{I.welcomeQueued}</Text> : null}
        <Group gap="sm" wrap="wrap">
          <Button component={Link} to="/settings" leftSection={<IconArrowLeft size={18} aria-hidden="true" />}>
            {I.toList}
          </Button>
          {batch.source === 'directory' ? null : (
            <Button variant="default" onClick={onAnother} leftSection={<IconReload size={18} aria-hidden="true" />}>
              {I.another}
            </Button>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}
