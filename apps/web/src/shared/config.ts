import type { PublicConfig } from '@lms/contract';
import { useDocumentTitle } from '@mantine/hooks';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../lib/answer';
import { http } from '../lib/http';
import { nullable, object, string, type Shape } from '../lib/shape';
import { configQueryKey, READ_ONCE } from './queryKeys';

/** The contract's `publicConfigResponse`, without zod (lib/shape.ts). */
export const publicConfigAnswer: Shape<PublicConfig> = object({
  company_name: string,
  login_domain: string,
  time_zone: string,
  oidc_label: nullable(string),
});

/**
 * GET /api/config (public): company name, the corporate login domain and time zone, and the label of
 * the corporate sign-in button (null without OpenID Connect). Never hard-coded.
 */
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

/** The company's name for the guest pages; a fixed one while the config is unknown or has none. */
export function companyNameOf(config: PublicConfig | undefined): string {
  return config?.company_name.trim() || 'Корпоративное обучение';
}

/**
 * The public config of a guest page (sign-in, recovery): the tab reads '{page} · {company}', and the
 * page gets the company's name, the login suffix and the corporate sign-in button's label (null
 * when there is none) from one place.
 */
export function useGuestConfig(page: string) {
  const config = usePublicConfig();
  const companyName = companyNameOf(config.data);
  useDocumentTitle(`${page} · ${companyName}`);
  return {
    loading: config.isPending,
    companyName,
    suffix: loginSuffix(config.data),
    oidcLabel: config.data?.oidc_label ?? null,
  };
}
