// The desk's own link to a company server (#20): answered by the desk host through its CompanyLink, never
// forwarded to the server (DESK_LOCAL_OPERATIONS; the server's dispatch refuses them). A service without a
// link (a company server, tests of the core alone) refuses them as `forbidden`.
import type { CompanyLink, ServiceContext } from './context';
import type { AreaOperations } from './define';
import { OperationError } from './errors';

function link(ctx: ServiceContext): CompanyLink {
  const company = ctx.service.company;
  if (!company) throw new OperationError('forbidden', 'Only a desk has a company link.');
  return company;
}

type CompanyOperation = 'company:status' | 'company:probe' | 'company:join' | 'company:leave';

export const companyOperations = {
  'company:status': { needs: 'service', run: (ctx) => link(ctx).status() },
  'company:probe': { needs: 'service', run: (ctx, { url }) => link(ctx).probe(url) },
  'company:join': { needs: 'service', run: (ctx, input) => link(ctx).join(input) },
  'company:leave': { needs: 'service', run: (ctx) => link(ctx).leave() },
} satisfies AreaOperations<CompanyOperation>;
