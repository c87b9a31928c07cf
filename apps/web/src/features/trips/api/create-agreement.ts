import type { Agreement, AgreementType, RentalType } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/agreements: signs one agreement with the renter's typed name. */
export const createAgreement = async (body: {
  type: AgreementType;
  platform_id: string;
  signature: string;
  date: string;
  rental_type: RentalType;
}) => (await api<{ agreement: Agreement }>('/api/v1/agreements', { method: 'POST', body })).agreement;
