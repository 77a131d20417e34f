import { Button, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { usePublicConfig } from '../../shared/config';
import { toastError } from '../../shared/toast';
import { DIRECTORY_TEXTS as D, useDirectoryDryRun, useDirectoryStatus } from './directorySync';
import { errorText } from './logic';
import { formatSentAt } from './mailLog';

/**
 * 'Синхронизировать' on the employees tab, shown only where a directory is set up (LDAP_URL): reads
 * the directory and opens its dry run on the import screen, where it is applied like a file's.
 */
export function DirectorySyncButton() {
  const status = useDirectoryStatus();
  const dryRun = useDirectoryDryRun();
  const navigate = useNavigate();
  const timeZone = usePublicConfig().data?.time_zone;
  if (!status.data?.configured) return null;
  const { last, interval_minutes: every } = status.data;
  const when = last ? D.last(formatSentAt(last.applied_at ?? last.created_at, timeZone)) : D.never;
  const onSync = async () => {
    try {
      const batch = await dryRun.mutateAsync();
      void navigate(`/settings/import?batch=${batch.id}`);
    } catch (error) {
      toastError(D.error(errorText(error)));
    }
  };
  return (
    <Tooltip label={`${D.hint}. ${when}${every ? `; ${D.every(every)}` : ''}`} withArrow multiline w={280}>
      <Button
        variant="default"
        flex={{ base: '1 1 auto', xs: 'none' }}
        leftSection={<IconRefresh size={18} aria-hidden="true" />}
        loading={dryRun.isPending}
        onClick={() => void onSync()}
      >
        {D.button}
      </Button>
    </Tooltip>
  );
}
