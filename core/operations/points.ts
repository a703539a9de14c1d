// points:search (#21): the desk's list of pickup points under a pickup-point rate, from the running service's
// point search (core/points/search.ts), the same function POST /ext/v1/points answers from. A carrier with no
// directory, a town no directory knows and a directory that could not be read are said as such (never an empty
// list, which means "no point takes this parcel").
import { PointSearchError } from '../points/search';
import type { AreaOperations } from './define';
import { OperationError } from './errors';

export const pointOperations = {
  'points:search': {
    needs: 'service',
    async run(ctx, query) {
      try {
        return await ctx.service.points(query);
      } catch (err) {
        if (!(err instanceof PointSearchError)) throw err;
        // A carrier not enabled, without a directory or without its account: the ask cannot be answered here.
        // A town no directory knows, or a carrier that failed with no copy kept: nothing to show now.
        const code = err.kind === 'town_not_found' || err.kind === 'carrier_error' ? 'not_found' : 'invalid';
        throw new OperationError(code, err.message);
      }
    },
  },
} satisfies AreaOperations<'points:search'>;
