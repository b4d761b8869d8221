import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** Who is logged in: kept in sessionStorage, so it ends with the window and is not shared with other tabs' logins. */
export interface Session {
  contractId: string;
  contractName: string;
  plan: string;
  timeZone: string;
  /** The staff code the staff member logged in with (the password grant's username). */
  staffCode: string;
  token: string;
  /** Epoch ms; the server's tokens last an hour. */
  expiresAt: number;
  scope: string;
}

export type LogoutReason = 'user' | 'expired';

interface SessionState {
  session: Session | null;
  /** Why the last session ended, for the login screen's notice; cleared by the next login. */
  endedBecause: LogoutReason | null;
  login(session: Session): void;
  logout(reason?: LogoutReason): void;
}

const STORAGE_KEY = 'pos-ui.session';

function stored(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const session = raw ? (JSON.parse(raw) as Session) : null;
    return session && session.expiresAt > Date.now() ? session : null;
  } catch {
    return null;
  }
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(stored);
  const [endedBecause, setEndedBecause] = useState<LogoutReason | null>(null);
  const login = useCallback((next: Session) => {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    setEndedBecause(null);
    setSession(next);
  }, []);
  const logout = useCallback((reason: LogoutReason = 'user') => {
    sessionStorage.removeItem(STORAGE_KEY);
    setEndedBecause(reason);
    setSession(null);
  }, []);
  const value = useMemo(() => ({ session, endedBecause, login, logout }), [session, endedBecause, login, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside <SessionProvider>');
  return state;
}
