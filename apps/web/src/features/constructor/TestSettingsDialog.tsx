import { testSettings, type TestSettings } from '@lms/contract';
import { Button, Divider, Group, Modal, SimpleGrid, Stack, Switch, TextInput, Tooltip } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { modalLook } from './dialogs';
import {
  clampPercent,
  digitsOnly,
  formatTimeMask,
  randomOrderLocked,
  settingsPayload,
  withBankRule,
  type SettingsForm,
} from './testRules';
import { T } from './texts';

type FieldErrors = Partial<Record<keyof TestSettings | 'name', string>>;

interface TestSettingsDialogProps {
  opened: boolean;
  /** 'create': 'Настройте тест' / 'Добавить тест' with the name; 'edit': 'Настройки теста' / 'Сохранить настройки'. */
  mode: 'create' | 'edit';
  initial: SettingsForm;
  onClose: () => void;
  /** Resolves true when the dialog may close. */
  onSubmit: (settings: TestSettings, name: string) => Promise<boolean>;
}

/** The errors of the settings the contract refuses (a switch on with an empty value), by field. */
function settingsErrors(settings: TestSettings): FieldErrors {
  const parsed = testSettings.safeParse(settings);
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in settings) errors[field as keyof TestSettings] ??= issue.message;
  }
  return errors;
}

/**
 * The test settings dialog (docs/product.md §Test authoring): passing percent (3 digits, clamped to 100), timer and
 * retake interval as hh:mm:ss, attempts and bank size (3 digits), and the switches; with the
 * question bank on, random question order is off and locked. Mount with a new key for each opening.
 */
export function TestSettingsDialog({ opened, mode, initial, onClose, onSubmit }: TestSettingsDialogProps) {
  const [form, setForm] = useState<SettingsForm>(() => withBankRule(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => {
    setForm((f) => withBankRule({ ...f, [key]: value }));
    setErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const settings = settingsPayload(form);
    const found = settingsErrors(settings);
    const name = form.name.trim();
    if (mode === 'create' && name === '') found.name = T.emptyName;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setBusy(true);
    try {
      if (await onSubmit(settings, name)) onClose();
    } finally {
      setBusy(false);
    }
  };

  const switchRow = (key: keyof SettingsForm & `has_${string}`, label: string, field: ReactNode) => (
    <Stack gap={6}>
      <Switch label={label} checked={form[key]} onChange={(e) => set(key, e.currentTarget.checked)} />
      {form[key] && field}
    </Stack>
  );

  const timeField = (key: 'timer' | 'retake_interval', label: string, error: string | undefined) => (
    <TextInput
      label={label}
      placeholder={T.timeMask}
      description={T.timeMask}
      value={form[key]}
      onChange={(e) => set(key, formatTimeMask(e.currentTarget.value))}
      inputMode="numeric"
      autoComplete="off"
      maxLength={8}
      error={error}
      maw={220}
    />
  );

  const countField = (key: 'max_attempts' | 'question_bank_size', label: string, error: string | undefined) => (
    <TextInput
      label={label}
      value={form[key]}
      onChange={(e) => set(key, digitsOnly(e.currentTarget.value))}
      inputMode="numeric"
      autoComplete="off"
      error={error}
      maw={220}
    />
  );

  const toggle = (key: 'randomize_answers' | 'show_correct_answers', label: string) => (
    <Switch label={label} checked={form[key]} onChange={(e) => set(key, e.currentTarget.checked)} />
  );

  const locked = randomOrderLocked(form);
  const randomQuestions = (
    <Switch
      label={T.randomQuestions}
      checked={form.randomize_questions}
      disabled={locked}
      onChange={(e) => set('randomize_questions', e.currentTarget.checked)}
    />
  );

  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={mode === 'create' ? T.newTestTitle : T.editTestTitle}
      size={560}
      {...modalLook}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {mode === 'create' && (
            <TextInput
              label={T.testName}
              value={form.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              onFocus={(e) => e.currentTarget.select()}
              maxLength={255}
              error={errors.name}
              autoComplete="off"
              data-autofocus
            />
          )}
          <TextInput
            label={T.passingScore}
            description={T.passingScoreHint}
            value={form.passing_score}
            onChange={(e) => set('passing_score', clampPercent(e.currentTarget.value))}
            inputMode="numeric"
            autoComplete="off"
            error={errors.passing_score}
            maw={220}
            data-autofocus={mode === 'edit' ? true : undefined}
          />
          <Divider />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
            {switchRow('has_timer', T.hasTimer, timeField('timer', T.timer, errors.timer_seconds))}
            {switchRow(
              'has_retake_interval',
              T.hasRetake,
              timeField('retake_interval', T.retake, errors.retake_interval_seconds),
            )}
            {switchRow(
              'has_attempts_limit',
              T.hasAttempts,
              countField('max_attempts', T.maxAttempts, errors.max_attempts),
            )}
            {switchRow(
              'has_question_bank',
              T.hasBank,
              countField('question_bank_size', T.bankSize, errors.question_bank_size),
            )}
          </SimpleGrid>
          <Divider />
          <Stack gap="sm">
            <Tooltip
              label={T.bankForcesOrder}
              disabled={!locked}
              position="top"
              openDelay={200}
              closeDelay={200}
              multiline
              w={280}
            >
              <div style={{ width: 'fit-content' }}>{randomQuestions}</div>
            </Tooltip>
            {toggle('randomize_answers', T.randomAnswers)}
            {toggle('show_correct_answers', T.showCorrect)}
          </Stack>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {T.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {mode === 'create' ? T.createTest : T.saveTestSettings}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
