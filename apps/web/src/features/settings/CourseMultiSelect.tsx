import type { NamedRef } from '@lms/contract';
import { MultiSelect, Pill, Tooltip, type ComboboxItemGroup } from '@mantine/core';
import { useMemo } from 'react';
import { useCourseChoices } from './queries';
import { T } from './texts';
import { useErrorToast } from './ui';

/** Chosen-course chips shown before '+N' (docs/product.md §Settings): 3 by default, 5 in the add forms. */
export const CHIPS_DEFAULT = 3;
export const CHIPS_ADD_FORM = 5;

const NONE: NamedRef[] = [];

interface CourseMultiSelectProps {
  value: number[];
  onChange: (value: number[]) => void;
  /** How many chips are shown; the rest collapse into '+N'. */
  visible?: number;
  /** Courses already known by name (e.g. a user's courses), used when the list lacks them. */
  known?: NamedRef[];
  disabled?: boolean;
}

type Group = ComboboxItemGroup<{ value: string; label: string }, string>;

/**
 * The course multi-select of the settings forms: courses of the catalogue grouped by category,
 * searchable, the chosen ones as chips of which only `visible` are shown, then '+N'.
 * A failed course list shows the toast 'Ошибка загрузки данных'.
 */
export function CourseMultiSelect({
  value,
  onChange,
  visible = CHIPS_DEFAULT,
  known = NONE,
  disabled,
}: CourseMultiSelectProps) {
  const courses = useCourseChoices();
  useErrorToast(courses, T.dropdownLoadError, 'settings-courses-error');

  const { data, labels } = useMemo(() => {
    const groups = new Map<string, Group>();
    const labels = new Map<number, string>();
    for (const course of courses.data ?? []) {
      const groupName = course.category || 'Без категории';
      let group = groups.get(groupName);
      if (!group) {
        group = { group: groupName, items: [] };
        groups.set(groupName, group);
      }
      group.items.push({ value: String(course.id), label: course.name });
      labels.set(course.id, course.name);
    }
    const missing = [...known, ...value.map((id) => ({ id, name: '' }))].filter((c) => !labels.has(c.id));
    if (missing.length > 0) {
      const other: Group = { group: 'Назначенные курсы', items: [] };
      for (const course of missing) {
        if (labels.has(course.id)) continue;
        const label = course.name || `Курс #${course.id}`;
        labels.set(course.id, label);
        other.items.push({ value: String(course.id), label });
      }
      groups.set(other.group, other);
    }
    return { data: [...groups.values()], labels };
  }, [courses.data, known, value]);

  const hidden = value.slice(visible);

  return (
    <MultiSelect
      label={T.courses}
      placeholder={value.length === 0 ? T.chooseCourses : undefined}
      data={data}
      value={value.map(String)}
      onChange={(next) => onChange(next.map(Number).filter((id) => Number.isInteger(id)))}
      searchable
      clearable
      disabled={disabled}
      nothingFoundMessage={courses.isPending ? T.coursesLoading : T.noCourses}
      maxDropdownHeight={260}
      comboboxProps={{ zIndex: 230, withinPortal: true }}
      renderPill={({ option, value: pillValue, onRemove, disabled: pillDisabled }) => {
        const id = Number(pillValue ?? option.value);
        const index = value.indexOf(id);
        if (index < 0 || index > visible) return null;
        if (index === visible) {
          return (
            <Tooltip label={hidden.map((h) => labels.get(h) ?? `#${h}`).join(', ')} multiline maw={320} withArrow>
              <Pill data-testid="courses-more">+{hidden.length}</Pill>
            </Tooltip>
          );
        }
        return (
          <Pill
            withRemoveButton={!pillDisabled}
            onRemove={onRemove}
            disabled={pillDisabled}
            removeButtonProps={{ 'aria-label': `Убрать курс ${labels.get(id) ?? ''}`.trim() }}
            maw={280}
          >
            {labels.get(id) ?? option.label}
          </Pill>
        );
      }}
    />
  );
}
