// Company mode's two rules (#20), pure so they are tested alone: what a person may run (the one role table
// of core/contract/operations/roles.ts; a local desk everything) and when the server is out of reach.
import { roleAllows, type CompanyStatus, type OperationName } from '../../../core/desk/contract';

export const LOCAL_STATUS: CompanyStatus = {
  mode: 'local',
  url: null,
  user: null,
  role: null,
  device: null,
  fingerprint: null,
  connection: 'local',
  reason: null,
};

/**
 * True when this desk's person may run `channel` (local mode: always). An unknown role counts as clerk, and so
 * does a status not read yet (`known` false).
 */
export function canRun(status: CompanyStatus, channel: OperationName, known = true): boolean {
  // Before the first status read a company desk's clerk would see admin tabs for a moment: until then only a
  // clerk's operations show (a local desk's admin ones appear one IPC round trip later).
  if (!known) return roleAllows('clerk', channel);
  if (status.mode !== 'company') return true;
  return roleAllows(status.role ?? 'clerk', channel);
}

/** In company mode while the server is not answering (or refuses this desk): actions that need it wait. */
export function serverBlocked(status: CompanyStatus): boolean {
  return status.mode === 'company' && status.connection !== 'online';
}
