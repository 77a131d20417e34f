import type { CertificateSettings } from '@lms/contract';
import { DEFAULT_CERTIFICATE_TITLE, IMAGE_MAX_BYTES } from '@lms/contract';
import {
  Box,
  Button,
  FileButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCertificate, IconDeviceFloppy, IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { messageOr } from '../../lib/errors';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import { toastError, toastSuccess } from '../../shared/toast';
import {
  useCertificateSettings,
  useSaveCertificate,
  useUploadCertificateLogo,
  type CertificateForm,
} from './certificateQueries';
import { CERTIFICATE_CARD_TEXTS as T, issuedText } from './certificateTexts';

/** The PDF embeds PNG and JPEG only (docs/rules.md §Certificates). */
const LOGO_TYPES = ['image/png', 'image/jpeg'];

function formOf(settings: CertificateSettings): CertificateForm {
  return {
    enabled: settings.enabled,
    title: settings.title || DEFAULT_CERTIFICATE_TITLE,
    signer_name: settings.signer_name ?? '',
    signer_position: settings.signer_position ?? '',
  };
}

/** 'Сертификат' of the course settings (issue 35): whether the course gives one, and what it says. */
export function CertificateCard({ courseId }: { courseId: number }) {
  const settings = useCertificateSettings(courseId);
  let body;
  if (settings.isPending) body = <LoadingStatus text={T.loading} />;
  else if (settings.isError) body = <LoadErrorNotice title={T.loadError} retryLabel={T.retry} query={settings} />;
  else body = <CertificateFormBody courseId={courseId} settings={settings.data} />;
  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="certificate-card-title"
      maw={760}
    >
      <Stack gap="md">
        <Group gap="xs">
          <IconCertificate size={22} aria-hidden="true" />
          <Title order={2} fz="lg" id="certificate-card-title">
            {T.section}
          </Title>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}

function CertificateFormBody({ courseId, settings }: { courseId: number; settings: CertificateSettings }) {
  const [form, setForm] = useState<CertificateForm>(() => formOf(settings));
  const [titleError, setTitleError] = useState<string | null>(null);
  const save = useSaveCertificate(courseId);
  const upload = useUploadCertificateLogo(courseId);
  const set = <K extends keyof CertificateForm>(key: K, value: CertificateForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.title.trim()) {
      setTitleError(T.titleRequired);
      return;
    }
    // The count of those issued at once matters only when the switch goes on.
    const switchedOn = form.enabled && !settings.enabled;
    save.mutate(
      { form },
      {
        onSuccess: ({ settings: saved, issued, message }) => {
          setForm(formOf(saved));
          toastSuccess(switchedOn && issued > 0 ? `${message}. ${issuedText(issued)}` : message);
        },
        onError: (error) => toastError(messageOr(error, T.saveError)),
      },
    );
  };

  const chooseLogo = (file: File | null) => {
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) return toastError(T.logoBadType);
    if (file.size > IMAGE_MAX_BYTES) return toastError(T.logoTooLarge);
    upload.mutate(file, {
      onSuccess: ({ message }) => toastSuccess(message),
      onError: (error) => toastError(messageOr(error, T.logoError)),
    });
  };

  // Removing the logo keeps what is stored, not the unsaved edits: those wait for 'Сохранить'.
  const removeLogo = () =>
    save.mutate(
      { form: formOf(settings), removeLogo: true },
      {
        onSuccess: () => toastSuccess(T.logoRemoved),
        onError: (error) => toastError(messageOr(error, T.saveError)),
      },
    );

  return (
    <form onSubmit={submit} noValidate aria-label={T.section}>
      <Stack gap="md">
        <Switch
          label={T.enabled}
          description={T.enabledHint}
          checked={form.enabled}
          onChange={(e) => set('enabled', e.currentTarget.checked)}
        />
        <TextInput
          label={T.title}
          required
          value={form.title}
          maxLength={120}
          error={titleError}
          onChange={(e) => {
            set('title', e.currentTarget.value);
            setTitleError(null);
          }}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label={T.signer}
            placeholder={T.signerPlaceholder}
            value={form.signer_name}
            maxLength={120}
            onChange={(e) => set('signer_name', e.currentTarget.value)}
          />
          <TextInput
            label={T.signerPosition}
            value={form.signer_position}
            maxLength={120}
            onChange={(e) => set('signer_position', e.currentTarget.value)}
          />
        </SimpleGrid>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {T.logo}
          </Text>
          <Group gap="md" align="center" wrap="wrap">
            <Box
              w={120}
              h={64}
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                border: '1px dashed var(--mantine-color-gray-4)',
                borderRadius: 'var(--mantine-radius-sm)',
                background: 'var(--mantine-color-gray-0)',
              }}
            >
              {settings.logo ? (
                <img src={settings.logo} alt={T.logo} style={{ maxWidth: 112, maxHeight: 56, objectFit: 'contain' }} />
              ) : (
                <IconPhoto size={28} stroke={1.4} color="var(--mantine-color-gray-5)" aria-hidden="true" />
              )}
            </Box>
            <Group gap="xs">
              <FileButton onChange={chooseLogo} accept={LOGO_TYPES.join(',')}>
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    variant="light"
                    loading={upload.isPending}
                    leftSection={<IconUpload size={16} aria-hidden="true" />}
                  >
                    {settings.logo ? T.logoReplace : T.logoUpload}
                  </Button>
                )}
              </FileButton>
              {settings.logo ? (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={removeLogo}
                  disabled={save.isPending}
                  leftSection={<IconTrash size={16} aria-hidden="true" />}
                >
                  {T.logoRemove}
                </Button>
              ) : null}
            </Group>
          </Group>
          <Text size="xs" c="dimmed">
            {T.logoHint}
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={save.isPending}
            leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
          >
            {T.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
