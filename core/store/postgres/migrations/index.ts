import type { PgMigration } from '../migrate';
import { m0001Schema } from './0001-schema';
import { m0002CarrierCoordination } from './0002-carrier-coordination';
import { m0003CompanyDesks } from './0003-company-desks';
import { m0004PointDirectories } from './0004-point-directories';
import { m0005PricingRules } from './0005-pricing-rules';

/** Numbered, append-only: a shipped migration is never edited (its checksum is recorded); a change is a new one. */
export const migrations: readonly PgMigration[] = [
  m0001Schema,
  m0002CarrierCoordination,
  m0003CompanyDesks,
  m0004PointDirectories,
  m0005PricingRules,
];
