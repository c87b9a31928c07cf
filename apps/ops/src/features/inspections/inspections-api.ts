import { queryOptions } from '@tanstack/react-query';
import type { DamageBody, InspectionCompare, InspectionResult } from '@ampere/domain/contract/ops-inspections';
import type { InspectionStage, InspectionView } from '@ampere/domain/inspections';
import { api, sendRaw } from '../../shared/api.ts';

/** The console's calls for a trip's inspections (decision 089). */
const base = (tripId: string) => `/trips/${encodeURIComponent(tripId)}/inspections`;

export const inspectionKeys = {
  all: (tripId: string) => ['inspections', tripId] as const,
  stage: (tripId: string, stage: InspectionStage) => ['inspections', tripId, stage] as const,
  compare: (tripId: string) => ['inspections', tripId, 'compare'] as const,
};

export const inspectionQuery = (tripId: string, stage: InspectionStage) =>
  queryOptions({
    queryKey: inspectionKeys.stage(tripId, stage),
    queryFn: () => api<InspectionResult>(`${base(tripId)}/${stage}`),
  });

export const compareQuery = (tripId: string) =>
  queryOptions({
    queryKey: inspectionKeys.compare(tripId),
    queryFn: () => api<InspectionCompare>(`${base(tripId)}/compare`),
  });

export const startInspection = (tripId: string, stage: InspectionStage) =>
  api<InspectionResult>(`${base(tripId)}/${stage}`, { method: 'POST' });

export const uploadViewPhoto = (
  tripId: string,
  stage: InspectionStage,
  view: InspectionView,
  file: File,
  onProgress: (fraction: number) => void,
) =>
  sendRaw<InspectionResult>(`${base(tripId)}/${stage}/photos/${view}`, {
    body: file,
    contentType: file.type || 'application/octet-stream',
    onProgress,
  });

export const addDamage = (tripId: string, stage: InspectionStage, body: DamageBody) =>
  api<InspectionResult>(`${base(tripId)}/${stage}/damage`, { method: 'POST', body });

export const addCloseup = (tripId: string, stage: InspectionStage, damageId: string, file: File) =>
  sendRaw<InspectionResult>(`${base(tripId)}/${stage}/damage/${damageId}/photos`, {
    body: file,
    contentType: file.type || 'application/octet-stream',
  });

export const removeDamage = (tripId: string, stage: InspectionStage, damageId: string) =>
  api<{ removed: true }>(`${base(tripId)}/${stage}/damage/${damageId}`, { method: 'DELETE' });

export const completeInspection = (tripId: string, stage: InspectionStage) =>
  api<InspectionResult>(`${base(tripId)}/${stage}/complete`, { method: 'POST' });
