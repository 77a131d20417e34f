import { certificateVerificationResponse, type CertificateVerification } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

/** GET /api/certificates/verify/{number}: public, so a 401 never sends the visitor to /login. */
export const verificationQuery = (number: string) =>
  queryOptions({
    queryKey: ['certificate-verification', number] as const,
    queryFn: async (): Promise<CertificateVerification> => {
      const { data } = await http.get<unknown>(`/api/certificates/verify/${encodeURIComponent(number)}`, {
        loginRedirect: false,
      });
      return parseAnswer(certificateVerificationResponse, data).result.certificate;
    },
    staleTime: 60_000,
  });

export function useVerification(number: string) {
  return useQuery(verificationQuery(number));
}
