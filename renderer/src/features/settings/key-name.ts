// The core's refusal of a key name already in use (keys:create, keys:import: a conflict whose message the
// contract's isKeyNameTaken recognises), told apart from the other conflicts so the form shows it at the name.
import { isKeyNameTaken } from '../../../../core/desk/contract';
import { DeskCallError } from '../../api/client';

export function nameTaken(err: unknown): boolean {
  return err instanceof DeskCallError && err.code === 'conflict' && isKeyNameTaken(err.detail);
}
