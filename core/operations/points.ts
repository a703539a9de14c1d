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
        // unknown carrier / no directory: the caller asked what cannot be answered; the rest: nothing to show.
        const code = err.kind === 'unknown_carrier' || err.kind === 'no_directory' ? 'invalid' : 'not_found';
        throw new OperationError(code, err.message);
      }
    },
  },
} satisfies AreaOperations<'points:search'>;
