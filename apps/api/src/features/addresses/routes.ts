import type { FastifyInstance } from 'fastify';
import { AddressSuggestions } from '@ampere/domain/contract/account';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { builtinAddressProvider } from './builtin-provider.ts';
import { type AddressProvider, AddressSuggestQuery, suggestInput } from './schema.ts';
import { SmartyAddressProvider } from './smarty-provider.ts';

/** Smarty when SMARTY_AUTH_ID and SMARTY_AUTH_TOKEN are set; the built-in street list otherwise. */
export function createAddressProvider(config: Deps['config']): AddressProvider {
  return config.smarty ? new SmartyAddressProvider(config.smarty) : builtinAddressProvider;
}

/** For signed-in renters only: each lookup may be a paid call to the provider. */
export function addressRoutes(
  app: FastifyInstance,
  { config }: Deps,
  provider: AddressProvider = createAddressProvider(config),
): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/addresses/suggest',
    tag: 'addresses',
    limit: 'lookups',
    summary:
      'US street addresses starting with what the renter typed (Smarty when configured, else built-in), only in include_only_states when given, prefer_states first',
    query: AddressSuggestQuery,
    response: AddressSuggestions,
    auth: 'renter',
    handler: async ({ query }, request) => {
      try {
        return { suggestions: await provider.suggest(suggestInput(query)) };
      } catch (err) {
        request.log.warn({ err, provider: provider.kind }, 'address suggestions failed');
        throw new AppError('UNAVAILABLE', 'Address suggestions are unavailable right now. Please try again.');
      }
    },
  });
}
