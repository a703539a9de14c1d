import type { PgMigration } from '../migrate';
import { m0001Schema } from './0001-schema';
import { m0002CarrierCoordination } from './0002-carrier-coordination';

/** Numbered, append-only: a shipped migration is never edited (its checksum is recorded); a change is a new one. */
export const migrations: readonly PgMigration[] = [m0001Schema, m0002CarrierCoordination];
