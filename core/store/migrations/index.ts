import type { Migration } from '../migrate';
import { m0001Init } from './0001-init';
import { m0002Idempotency } from './0002-idempotency';
import { m0003DeskData } from './0003-desk-data';

/** Numbered, append-only: a shipped migration is never edited; a change is a new file. */
export const migrations: readonly Migration[] = [m0001Init, m0002Idempotency, m0003DeskData];
