import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { cardKeys } from '../../payments/public/get-credit-cards.ts';

/** DELETE /api/v1/users/credit-cards/:id */
export const deleteCreditCard = (id: string) =>
  api<unknown>(`/api/v1/users/credit-cards/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteCreditCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCreditCard,
    onSettled: () => queryClient.invalidateQueries({ queryKey: cardKeys.list() }),
  });
}
