// Company mode in the renderer (#20): the desk's link to a company server as the shell sees it. One provider
// reads company:status at start and follows the company:status event; screens ask it two questions:
//   useCan()('keys:create')  — may this person run that operation? (the role table of
//                               core/contract/operations/roles.ts; local mode: everything, as before)
//   useServerGate()          — is the server reachable now? Actions that need it are disabled with a
//                               reason, never run against local data instead.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { CompanyStatus, OperationName } from '../../../core/desk/contract';
import { call, hasDeskApi } from '../api/client';
import { useDeskEvent } from '../api/hooks';
import { ServerGateContext, type ServerGate } from '../components/server-gate';
import { useT } from '../i18n';
import { canRun, LOCAL_STATUS, serverBlocked } from './company-rules';

export { canRun, LOCAL_STATUS, serverBlocked } from './company-rules';

interface CompanyState {
  status: CompanyStatus;
  /** Whether status has been read at least once (before that the shell shows no company chrome). */
  known: boolean;
  /** Takes a status a company:* call returned (join, leave) without waiting for the event. */
  setStatus: (status: CompanyStatus) => void;
  /** Bumped each time the server answers again after a gap: screens mounted under it load afresh. */
  generation: number;
}

const CompanyContext = createContext<CompanyState>({
  status: LOCAL_STATUS,
  known: false,
  setStatus: () => {},
  generation: 0,
});

export function useCompany(): CompanyState {
  return useContext(CompanyContext);
}

export function CompanyProvider(props: { children: ReactNode }): ReactNode {
  const [status, setStatusState] = useState<CompanyStatus>(LOCAL_STATUS);
  const [known, setKnown] = useState(false);
  const [generation, setGeneration] = useState(0);
  const previous = useRef<CompanyStatus | null>(null);

  const setStatus = useCallback((next: CompanyStatus) => {
    setStatusState(next);
    setKnown(true);
    const before = previous.current;
    previous.current = next;
    if (before === null) return;
    // Joined or left: every screen's data came from the other side. Back online after a gap: what screens
    // loaded meanwhile is an error or stale. Either way they remount and load afresh.
    const switched = before.mode !== next.mode;
    const back = before.connection !== 'online' && next.connection === 'online';
    if (switched || back) setGeneration((g) => g + 1);
  }, []);

  useEffect(() => {
    if (!hasDeskApi()) return;
    let live = true;
    call((api) => api.company.status())
      .then((s) => {
        if (live) setStatus(s);
      })
      .catch(() => {
        // A desk without a company link (an older core): it is a local desk.
        if (live) setKnown(true);
      });
    return () => {
      live = false;
    };
  }, [setStatus]);
  useDeskEvent('company:status', setStatus);

  const value = useMemo(
    () => ({ status, known, setStatus, generation }),
    [status, known, setStatus, generation],
  );
  return (
    <CompanyContext.Provider value={value}>
      <GateProvider>{props.children}</GateProvider>
    </CompanyContext.Provider>
  );
}

/** Feeds Button's `needsServer` (components/ knows nothing of company mode itself). */
function GateProvider(props: { children: ReactNode }): ReactNode {
  const { blocked, reason } = useServerGate();
  const value = useMemo(() => ({ blocked, reason }), [blocked, reason]);
  return <ServerGateContext.Provider value={value}>{props.children}</ServerGateContext.Provider>;
}

/** `can('keys:create')`: what the UI shows is derived from the one role table, never a second list. */
export function useCan(): (channel: OperationName) => boolean {
  const { status, known } = useCompany();
  return useCallback((channel: OperationName) => canRun(status, channel, known), [status, known]);
}

export function useServerGate(): ServerGate {
  const { status } = useCompany();
  const t = useT('company');
  const blocked = serverBlocked(status);
  return {
    blocked,
    reason: blocked ? (status.connection === 'refused' ? t('gate.refused') : t('gate.offline')) : undefined,
  };
}
