import { Anchor, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '../../shared/Link';
import { DIRECTORY_TEXTS } from './directorySync';
import { importBatchQuery } from './importQueries';
import { ImportResult } from './ImportResult';
import { IMPORT_TEXTS as I } from './importTexts';
import { ImportUploadForm, type UploadDraft } from './ImportUploadForm';
import { SettingsFrame } from './SettingsFrame';

/** The dry run shown is in the address (`?batch=12`): a reload or a shared link opens it again. */
const BATCH_PARAM = 'batch';

/**
 * /settings/import: employees from a spreadsheet (issue 32). The file is first checked (a dry run
 * the server keeps), then applied as shown. Reached from the employees tab; no tab is marked, and
 * '← Сотрудники' leads back.
 */
export default function ImportPage() {
  return (
    <SettingsFrame>
      <ImportScreen />
    </SettingsFrame>
  );
}

function batchOf(params: URLSearchParams): number | null {
  const id = Number(params.get(BATCH_PARAM));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function ImportScreen() {
  const [params, setParams] = useSearchParams();
  const batchId = batchOf(params);
  // A dry run of the directory sync opens here too, under its own title.
  const shown = useQuery({ ...importBatchQuery(batchId ?? 0), enabled: batchId !== null });
  // the last file sent, while this page is open: after a 409 it is checked again without choosing it anew
  const [sent, setSent] = useState<UploadDraft | null>(null);
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/settings" size="sm" fw={500} style={{ alignSelf: 'flex-start' }}>
        <Group gap={6} wrap="nowrap" component="span">
          <IconArrowLeft size={16} aria-hidden="true" />
          {I.back}
        </Group>
      </Anchor>
      <Title order={2} fz={{ base: 20, sm: 22 }}>
        {batchId !== null && shown.data?.source === 'directory' ? DIRECTORY_TEXTS.title : I.title}
      </Title>
      {batchId === null ? (
        <ImportUploadForm
          initial={sent}
          onChecked={(batch, draft) => {
            setSent(draft);
            setParams({ [BATCH_PARAM]: String(batch.id) });
          }}
        />
      ) : (
        // keyed: another batch starts with its own filter, page and apply state
        <ImportResult
          key={batchId}
          id={batchId}
          onAnother={() => {
            setSent(null);
            setParams({});
          }}
          onAgain={() => setParams({})}
        />
      )}
    </Stack>
  );
}
