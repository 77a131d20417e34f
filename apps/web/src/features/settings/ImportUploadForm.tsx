import {
  PEOPLE_IMPORT_MAX_BYTES,
  PERSON_FIELD_LABELS,
  REQUIRED_PERSON_FIELDS,
  PERSON_FIELDS,
  type PeopleBatch,
  type PeopleImportOptions,
} from '@lms/contract';
import { Alert, Anchor, Button, Checkbox, FileInput, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import {
  IconAlertCircle,
  IconFileSpreadsheet,
  IconFileTypeCsv,
  IconFileUpload,
  IconListCheck,
} from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { errorStatus, isNetworkError, messageOr, TEXT_NETWORK_ERROR } from '../../lib/errors';
import { BusyBar } from './ImportApply';
import { templateHref, useUploadPeople } from './importQueries';
import { IMPORT_TEXTS as I } from './importTexts';

/** Where the upload stands: the file going out (determinate), then the server reading it. */
type Stage = { step: 'idle' } | { step: 'sending'; percent: number } | { step: 'checking' };

const OPTIONS = [
  { key: 'create_departments', label: I.createDepartments, hint: I.createDepartmentsHint },
  { key: 'delete_missing', label: I.deleteMissing, hint: I.deleteMissingHint },
  { key: 'send_welcome', label: I.sendWelcome, hint: I.sendWelcomeHint },
] as const;

/**
 * Invitations are on by default: an employee added by hand always gets a password by mail, and one
 * imported without it cannot sign in until an admin resets the password.
 */
const DEFAULT_OPTIONS: PeopleImportOptions = { create_departments: false, delete_missing: false, send_welcome: true };

const OPTIONAL_FIELDS = PERSON_FIELDS.filter((f) => !REQUIRED_PERSON_FIELDS.includes(f));
const fieldList = (fields: readonly (keyof typeof PERSON_FIELD_LABELS)[]) =>
  fields.map((f) => PERSON_FIELD_LABELS[f]).join(', ');

/** Why the upload failed, in the server's words where it gave any. */
function uploadProblem(error: unknown): string {
  if (isNetworkError(error)) return TEXT_NETWORK_ERROR;
  if (errorStatus(error) === 413) return messageOr(error, I.tooLarge);
  return messageOr(error, I.checkError);
}

/** What was sent: the file and the choices, kept to check them again. */
export interface UploadDraft {
  file: File;
  options: PeopleImportOptions;
}

interface ImportUploadFormProps {
  /** The form starts with these (checking the same file again); empty by default. */
  initial: UploadDraft | null;
  onChecked: (batch: PeopleBatch, sent: UploadDraft) => void;
}

/** Steps 1 and 2: what the file holds, the template, the file and the three choices; then the upload. */
export function ImportUploadForm({ initial, onChecked }: ImportUploadFormProps) {
  const [file, setFile] = useState<File | null>(initial?.file ?? null);
  const [options, setOptions] = useState<PeopleImportOptions>(initial?.options ?? DEFAULT_OPTIONS);
  const [problem, setProblem] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const upload = useUploadPeople();
  const busy = stage.step !== 'idle';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem(I.noFile);
    // the server would refuse it too, but only after the whole file had been sent
    if (file.size > PEOPLE_IMPORT_MAX_BYTES) return setProblem(I.tooLarge);
    setProblem(null);
    setStage({ step: 'sending', percent: 0 });
    try {
      const batch = await upload.mutateAsync({
        file,
        options,
        onProgress: (percent) => setStage(percent >= 100 ? { step: 'checking' } : { step: 'sending', percent }),
      });
      onChecked(batch, { file, options });
    } catch (error) {
      setProblem(uploadProblem(error));
      setStage({ step: 'idle' });
    }
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="lg">
          <Stack gap="xs">
            <Text size="sm">{I.intro}</Text>
            <Text size="sm">
              <Text span fw={600} inherit>
                {I.requiredColumns}
              </Text>{' '}
              {fieldList(REQUIRED_PERSON_FIELDS)}.{' '}
              <Text span fw={600} inherit>
                {I.optionalColumns}
              </Text>{' '}
              {fieldList(OPTIONAL_FIELDS)}.
            </Text>
            <Text size="sm" c="dimmed">
              {I.roleHint}
            </Text>
            <Text size="sm" c="dimmed">
              {I.managerHint}
            </Text>
            <Group gap="md" wrap="wrap">
              <Text size="sm" fw={600}>
                {I.template}
              </Text>
              <Anchor href={templateHref('xlsx')} download size="sm">
                <Group gap={4} wrap="nowrap" component="span">
                  <IconFileSpreadsheet size={18} aria-hidden="true" />
                  {I.templateXlsx}
                </Group>
              </Anchor>
              <Anchor href={templateHref('csv')} download size="sm">
                <Group gap={4} wrap="nowrap" component="span">
                  <IconFileTypeCsv size={18} aria-hidden="true" />
                  {I.templateCsv}
                </Group>
              </Anchor>
            </Group>
          </Stack>

          <FileInput
            label={I.file}
            description={I.fileHint}
            placeholder={I.filePlaceholder}
            accept=".xlsx,.csv"
            value={file}
            onChange={(next) => {
              setFile(next);
              setProblem(null);
            }}
            clearable={!busy}
            disabled={busy}
            leftSection={<IconFileUpload size={18} aria-hidden="true" />}
            maw={560}
            // Mantine's placeholder grey is 2:1 on white; the dimmed text colour reaches 4.5:1
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          />

          <Stack gap="sm">
            {OPTIONS.map(({ key, label, hint }) => (
              <Checkbox
                key={key}
                label={label}
                description={hint}
                checked={options[key]}
                disabled={busy}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  setOptions((o) => ({ ...o, [key]: checked }));
                }}
              />
            ))}
          </Stack>

          {problem ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
              {problem}
            </Alert>
          ) : null}

          {stage.step === 'idle' ? null : <UploadProgress stage={stage} />}

          <Group>
            <Button type="submit" loading={busy} leftSection={<IconListCheck size={18} aria-hidden="true" />}>
              {I.check}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The file going out as a filling bar with its percent; then, while the server reads it, a moving one. */
function UploadProgress({ stage }: { stage: Exclude<Stage, { step: 'idle' }> }) {
  if (stage.step === 'sending') {
    return (
      <Stack gap={4} maw={560}>
        <Progress value={stage.percent} size="lg" radius="xl" aria-label={I.uploading} />
        <Text size="xs" c="dimmed" aria-live="polite">
          {I.uploadingPercent(stage.percent)}
        </Text>
      </Stack>
    );
  }
  return <BusyBar label={I.checking} />;
}
