import type { PublicConfig } from '@lms/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../app/http';

export const configQueryKey = ['config'] as const;

/** GET /api/config (public): company name and the corporate login domain. Never hard-coded. */
export function usePublicConfig() {
  return useQuery({
    queryKey: configQueryKey,
    queryFn: async () => (await http.get<PublicConfig>('/api/config')).data,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 2,
  });
}

/** The fixed suffix ({host}) shown after the mailbox part: '@' + login_domain, or '' if unknown. */
export function loginSuffix(config: PublicConfig | undefined): string {
  const domain = config?.login_domain.trim().replace(/^@+/, '') ?? '';
  return domain ? '@' + domain : '';
}
