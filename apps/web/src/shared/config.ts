import type { PublicConfig } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../lib/answer';
import { http } from '../lib/http';
import { object, string, type Shape } from '../lib/shape';
import { configQueryKey, READ_ONCE } from './queryKeys';

/** The contract's `publicConfigResponse`, without zod (lib/shape.ts). */
export const publicConfigAnswer: Shape<PublicConfig> = object({
  company_name: string,
  login_domain: string,
  time_zone: string,
});

/** GET /api/config (public): company name, the corporate login domain and time zone. Never hard-coded. */
export const publicConfigQuery = queryOptions({
  queryKey: configQueryKey,
  queryFn: async (): Promise<PublicConfig> => parseAnswer(publicConfigAnswer, (await http.get('/api/config')).data),
  ...READ_ONCE,
  retry: 2,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}

/** The fixed suffix ({host}) shown after the mailbox part: '@' + login_domain, or '' if unknown. */
export function loginSuffix(config: PublicConfig | undefined): string {
  const domain = config?.login_domain.trim().replace(/^@+/, '') ?? '';
  return domain ? '@' + domain : '';
}
