import { directorySyncStatusResponse, peopleBatchResponse, type PeopleBatch } from '@lms/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

/** Texts of the directory sync (issue 32): the button on the employees tab and its dry run. */
export const DIRECTORY_TEXTS = {
  title: 'Синхронизация с каталогом',
  button: 'Синхронизировать',
  hint: 'Прочитать сотрудников из каталога (Active Directory) и показать, что изменится',
  last: (when: string) => `Последняя синхронизация: ${when}`,
  never: 'Синхронизаций ещё не было',
  every: (minutes: number) => `по расписанию — каждые ${minutes} мин`,
  error: (message: string) => `Не удалось синхронизировать: ${message}`,
  rules:
    'Отделы создаются по каталогу; отключённые и удалённые из каталога сотрудники будут удалены здесь, их результаты обучения сохранятся. Сотрудников, добавленных вручную, синхронизация не меняет.',
} as const;

const PATH = '/api/admin/directory-sync';

export const directoryStatusQuery = queryOptions({
  queryKey: ['settings', 'directory-sync'] as const,
  queryFn: async () => parseAnswer(directorySyncStatusResponse, (await http.get<unknown>(PATH)).data).data,
  staleTime: 60_000,
});

export function useDirectoryStatus() {
  return useQuery(directoryStatusQuery);
}

/** POST: the directory read and its dry run stored; the answer opens on the import screen. */
export function useDirectoryDryRun() {
  return useMutation({
    mutationFn: async (): Promise<PeopleBatch> =>
      // reading a large directory takes longer than the client's usual time-out
      parseAnswer(peopleBatchResponse, (await http.post<unknown>(PATH, {}, { timeout: 0 })).data).data,
  });
}
