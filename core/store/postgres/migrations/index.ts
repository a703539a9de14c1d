import type { PgMigration } from '../migrate';
import { m0001Schema } from './0001-schema';

/** Numbered, append-only: a shipped migration is never edited (its checksum is recorded); a change is a new one. */
export const migrations: readonly PgMigration[] = [m0001Schema];
