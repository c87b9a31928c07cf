import { api } from '../../../shared/api/client.ts';

/** GET /api/v1/agreements/{id}/signed_url: a short-lived link to the signed document. Fetched on each click, since it expires. */
export const getAgreementUrl = (agreementId: string) =>
  api<{ signed_url: string; expires_at: string }>(`/api/v1/agreements/${encodeURIComponent(agreementId)}/signed_url`);
