import type { Migration } from '../migrate';
import { m0001Init } from './0001-init';
import { m0002Idempotency } from './0002-idempotency';
import { m0003DeskData } from './0003-desk-data';
import { m0004MigrationChecksums } from './0004-migration-checksums';
import { m0005LocationCache } from './0005-location-cache';
import { m0006RateCards } from './0006-rate-cards';
import { m0007FivePostCatalogue } from './0007-fivepost-catalogue';
import { m0008CompanyDesks } from './0008-company-desks';
import { m0009PointDirectories } from './0009-point-directories';
import { m0010PricingRules } from './0010-pricing-rules';

/**
 * Numbered, append-only: a shipped migration is never edited, not even its indentation (the checksum would
 * forgive that, but sqlite_master of existing files holds the text as shipped, and new files should hold the
 * same); a change is a new file.
 */
export const migrations: readonly Migration[] = [
  m0001Init,
  m0002Idempotency,
  m0003DeskData,
  m0004MigrationChecksums,
  m0005LocationCache,
  m0006RateCards,
  m0007FivePostCatalogue,
  m0008CompanyDesks,
  m0009PointDirectories,
  m0010PricingRules,
];
