import type { ConstructorCourse, CourseDayField } from '@lms/contract';
import { Button, Divider, Group, Paper, Radio, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from '../../shared/Link';
import { isNotFound, messageOr } from '../../lib/errors';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { useCourse, useUpdateCourse } from './queries';
import {
  courseSettingsFormOf,
  courseSettingsPayload,
  DAY_FIELDS,
  dayErrorsOf,
  settingsProblems,
  type Accessibility,
  type CourseSettingsForm,
  type DayErrors,
} from './courseSettings';
import { digitsOnly } from './testRules';
import { ConstructorBreadcrumbs } from './ConstructorBreadcrumbs';
import { MissingCourse } from './loadErrors';
import { ConstructorGate, parseId } from './ConstructorGate';
import { T } from './texts';
import { CourseAssignment } from './CourseAssignment';
import { CertificateCard } from './CertificateCard';

/** Visibility options (docs/product.md §Course settings): all → everyone, students → enrolled_only, none → nobody. */
const ACCESS_OPTIONS: { value: Accessibility; label: string }[] = [
  { value: 'everyone', label: T.accessEveryone },
  { value: 'enrolled_only', label: T.accessEnrolled },
  { value: 'nobody', label: T.accessNobody },
];

/**
 * The course settings page (docs/product.md §Course settings): /management/constructor/{courseId}/settings.
 * Deadline, recurrence and accessibility (the values show only while their switch is on), then whom
 * the course is assigned to ('Назначение', applied in place). Only for admins and authors; everyone
 * else sees 'Доступ запрещен'.
 */
export default function CourseSettingsPage() {
  return (
    <ConstructorGate ids={(params) => parseId(params.courseId)} badAddress={T.courseLoadError}>
      {(courseId) => <CourseSettings key={courseId} courseId={courseId} />}
    </ConstructorGate>
  );
}

function CourseSettings({ courseId }: { courseId: number }) {
  const course = useCourse(courseId);
  useEffect(() => {
    if (course.error && !isNotFound(course.error)) {
      toastError(messageOr(course.error, T.courseLoadError), 'constructor-course-error');
    }
  }, [course.error, course.errorUpdatedAt]);

  if (isNotFound(course.error)) return <MissingCourse error={course.error} />;

  let body: ReactNode;
  if (course.isPending) body = <LoadingStatus text={T.loading} />;
  else if (course.isError) {
    body = <LoadErrorNotice title={T.courseLoadError} retryLabel={T.retry} query={course} />;
  } else {
    body = (
      <>
        <SettingsForm key={course.data.id} course={course.data} />
        <CertificateCard courseId={course.data.id} />
        <CourseAssignment courseId={course.data.id} />
      </>
    );
  }

  return (
    <Stack gap="md">
      <ConstructorBreadcrumbs courseId={courseId} current="settings" />
      {body}
    </Stack>
  );
}

function SettingsForm({ course }: { course: ConstructorCourse }) {
  const [form, setForm] = useState<CourseSettingsForm>(() => courseSettingsFormOf(course));
  // Messages show once a day field was left or a save was tried, not while the first one is typed.
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<DayErrors>({});
  const inputs = useRef<Partial<Record<CourseDayField, HTMLInputElement | null>>>({});
  const update = useUpdateCourse(course.id);
  const set = <K extends keyof CourseSettingsForm>(key: K, value: CourseSettingsForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const problems = settingsProblems(form);
  const errorOf = (key: CourseDayField) => serverErrors[key] ?? (checked ? problems[key] : undefined);

  const dayField = (key: CourseDayField, label: string) => {
    const error = errorOf(key);
    return (
      <TextInput
        ref={(node) => {
          inputs.current[key] = node;
        }}
        id={`course-${key}`}
        // Mantine names its error element '{id}-error'; aria-errormessage points to it as well.
        aria-errormessage={error ? `course-${key}-error` : undefined}
        label={label}
        // The reason replaces the hint while there is one.
        description={error ? undefined : T.daysHint}
        value={form[key]}
        onChange={(e) => {
          set(key, digitsOnly(e.currentTarget.value));
          setServerErrors(({ [key]: _gone, ...rest }) => rest);
        }}
        onBlur={() => setChecked(true)}
        error={error}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        inputMode="numeric"
        autoComplete="off"
        maxLength={3}
        maw={240}
      />
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const invalid = DAY_FIELDS.find((key) => problems[key]);
    if (invalid) {
      inputs.current[invalid]?.focus();
      return;
    }
    update.mutate(courseSettingsPayload(form, course), {
      onSuccess: ({ course: saved }) => {
        setForm(courseSettingsFormOf(saved));
        setServerErrors({});
        toastSuccess(T.settingsSaved);
      },
      onError: (error) => {
        setServerErrors(dayErrorsOf(error));
        toastError(messageOr(error, T.settingsSaveError));
      },
    });
  };

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      component="form"
      onSubmit={submit}
      noValidate
      className={`${classes.fadeIn} ${classes.readableErrors}`}
      maw={760}
    >
      <Stack gap="lg">
        <div>
          <Title order={1} fz={24}>
            {T.courseSettingsTitle}
          </Title>
          <Text c="dimmed" size="sm">
            {course.title}
          </Text>
        </div>

        <Stack gap="sm" component="section" aria-label={T.deadlineSection}>
          <Title order={2} fz="lg">
            {T.deadlineSection}
          </Title>
          <Switch
            label={T.hasDeadline}
            checked={form.has_deadline}
            onChange={(e) => set('has_deadline', e.currentTarget.checked)}
          />
          {form.has_deadline && (
            <Stack gap="sm" pl={{ base: 0, sm: 'xl' }}>
              <Radio.Group
                label={T.deadlineType}
                value={form.deadline_type}
                onChange={(value) => set('deadline_type', value === 'from_start' ? 'from_start' : 'from_enrollment')}
              >
                <Group gap="lg" mt={6}>
                  <Radio value="from_enrollment" label={T.fromEnrollment} />
                  <Radio value="from_start" label={T.fromStart} />
                </Group>
              </Radio.Group>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                {dayField('deadline_value', T.deadlineDays)}
                {dayField('deadline_warning_days', T.warningDays)}
              </SimpleGrid>
            </Stack>
          )}
        </Stack>

        <Divider />

        <Stack gap="sm" component="section" aria-label={T.recurrenceSection}>
          <Title order={2} fz="lg">
            {T.recurrenceSection}
          </Title>
          <Switch
            label={T.hasRecurrence}
            checked={form.has_recurrence}
            onChange={(e) => set('has_recurrence', e.currentTarget.checked)}
          />
          {form.has_recurrence && (
            <Stack gap="sm" pl={{ base: 0, sm: 'xl' }}>
              {dayField('recurrence_value', T.recurrenceDays)}
            </Stack>
          )}
        </Stack>

        <Divider />

        <Radio.Group
          label={
            <Title order={2} fz="lg" component="span">
              {T.accessibilitySection}
            </Title>
          }
          value={form.accessibility}
          onChange={(value) => {
            const option = ACCESS_OPTIONS.find((o) => o.value === value);
            if (option) set('accessibility', option.value);
          }}
        >
          <Stack gap="xs" mt="sm">
            {ACCESS_OPTIONS.map((o) => (
              <Radio key={o.value} value={o.value} label={o.label} />
            ))}
          </Stack>
        </Radio.Group>

        <Group justify="space-between" gap="sm">
          <Button
            component={Link}
            to={`/management/constructor/${course.id}`}
            variant="subtle"
            leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
          >
            {T.backToConstructor}
          </Button>
          <Button
            type="submit"
            loading={update.isPending}
            leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
          >
            {T.saveSettings}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
