import {
  PEOPLE_ROWS_PER_PAGE,
  peopleBatchResponse,
  peopleBatchRowsResponse,
  type PeopleAction,
  type PeopleBatch,
  type PeopleBatchRow,
  type PeopleImportOptions,
} from '@lms/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer, successMessage } from '../../lib/answer';
import { http } from '../../lib/http';
import { sessionQueryKey } from '../../shared/queryKeys';
import { IMPORT_TEXTS as I } from './importTexts';
import { mailLogKeys } from './mailLog';
import { settingsKeys } from './queries';

/** The employees import's calls (issue 32): a dry run of a file, its rows, and applying it. */

const BASE = '/api/admin/people-import';

export const IMPORT_ROWS_PER_PAGE = PEOPLE_ROWS_PER_PAGE;

/** GET …/template?format=: a plain link with the session cookie downloads it. */
export const templateHref = (format: 'xlsx' | 'csv') => `${BASE}/template?format=${format}`;

export const importKeys = {
  batch: (id: number) => ['settings', 'people-import', id] as const,
  rows: (id: number, action: PeopleAction | null, page: number) =>
    ['settings', 'people-import', id, 'rows', action ?? 'all', page] as const,
};

export interface BatchRowsPage {
  items: PeopleBatchRow[];
  total: number;
  page: number;
  per_page: number;
}

/** GET /api/admin/people-import/{id}: the dry run's figures and whether it was applied. */
export const importBatchQuery = (id: number) =>
  queryOptions({
    queryKey: importKeys.batch(id),
    queryFn: async () => parseAnswer(peopleBatchResponse, (await http.get<unknown>(`${BASE}/${id}`)).data).data,
    // it changes only when applied, which puts the answer here itself: the upload's answer is not asked for again
    staleTime: 30_000,
  });

/** GET …/{id}/rows?page=&per_page=[&action=]: one page of rows in file order. */
export const importRowsQuery = (id: number, action: PeopleAction | null, page: number) =>
  queryOptions({
    queryKey: importKeys.rows(id, action, page),
    queryFn: async (): Promise<BatchRowsPage> => {
      const params = new URLSearchParams({ page: String(page), per_page: String(IMPORT_ROWS_PER_PAGE) });
      if (action) params.set('action', action);
      const answer = parseAnswer(
        peopleBatchRowsResponse,
        (await http.get<unknown>(`${BASE}/${id}/rows?${params}`)).data,
      );
      return { items: answer.items, total: answer.total, page: answer.page, per_page: answer.per_page };
    },
    // a batch's rows never change: read once
    staleTime: Infinity,
    // the rows of the page before stay while the next one loads, so the table does not flash
    placeholderData: keepPreviousData,
  });

export function useImportBatch(id: number) {
  return useQuery(importBatchQuery(id));
}

export function useImportRows(id: number, action: PeopleAction | null, page: number) {
  return useQuery(importRowsQuery(id, action, page));
}

export interface UploadRequest {
  file: File;
  options: PeopleImportOptions;
  /** 0–100 while the file is sent; 100 once it is all with the server (which then checks it). */
  onProgress: (percent: number) => void;
}

/**
 * POST /api/admin/people-import (multipart): the dry run. The choices go before the file, as the
 * server reads them from the fields that precede it. No time-out: a 20 MB file on a slow line, then
 * the check of 50 000 rows, may well take longer than the client's usual 10 s.
 */
export function useUploadPeople() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, options, onProgress }: UploadRequest): Promise<PeopleBatch> => {
      const form = new FormData();
      form.append('create_departments', String(options.create_departments));
      form.append('delete_missing', String(options.delete_missing));
      form.append('send_welcome', String(options.send_welcome));
      form.append('file', file);
      const { data } = await http.post<unknown>(BASE, form, {
        timeout: 0,
        onUploadProgress: ({ loaded, total }) => {
          const size = total ?? file.size;
          onProgress(size > 0 ? Math.min(100, Math.floor((loaded / size) * 100)) : 100);
        },
      });
      return parseAnswer(peopleBatchResponse, data).data;
    },
    // the result screen opens on the answer without asking for it again
    onSuccess: (batch) => client.setQueryData(importKeys.batch(batch.id), batch),
  });
}

/**
 * POST /api/admin/people-import/{id}/apply → the server's message and the applied batch. No
 * time-out either: the server writes everything in one transaction, and a client that gave up
 * half-way would say 'failed' about changes that were in fact made. Everything that shows
 * employees is read again: the list, the departments (some may be new), the groups' member names,
 * the mail log (invitations), and the session (the admin's own name may have changed).
 */
export function useApplyImport(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await http.post<unknown>(`${BASE}/${id}/apply`, undefined, { timeout: 0 });
      const answer = parseAnswer(peopleBatchResponse, data);
      return { batch: answer.data, message: successMessage(data, I.applied) };
    },
    onSuccess: ({ batch }) => {
      client.setQueryData(importKeys.batch(id), batch);
      for (const queryKey of [
        settingsKeys.users,
        settingsKeys.departments,
        settingsKeys.groups,
        mailLogKeys.all,
        sessionQueryKey,
      ]) {
        void client.invalidateQueries({ queryKey });
      }
    },
    // a 409 may mean the batch was applied meanwhile (another tab): its status is read again
    onError: () => client.invalidateQueries({ queryKey: importKeys.batch(id), exact: true }),
  });
}
