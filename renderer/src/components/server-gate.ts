// Whether actions that need the company server can run now (#20). app/company.tsx provides it; a Button
// marked `needsServer` reads it, so a screen only says which of its actions need the server.
import { createContext } from 'react';

export interface ServerGate {
  /** True in company mode while the server is not answering (or refuses this desk). */
  blocked: boolean;
  /** Why, for the tooltip of a disabled action. */
  reason: string | undefined;
}

export const ServerGateContext = createContext<ServerGate>({ blocked: false, reason: undefined });
