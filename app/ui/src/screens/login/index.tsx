import { useEffect, useState, type FormEvent } from 'react';
import { loadUiConfig, requestUserToken, type UiConfig } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useT } from '../../i18n';
import { HOME } from '../../nav';
import { navigate, type ScreenProps } from '../../router';
import { useSession } from '../../session';
import { DEFAULT_TIME_ZONE } from '../../shared/format';
import { messages } from './i18n';

type Contract = UiConfig['contracts'][number];

/**
 * The staff login (the password grant with the UI's public client). The contract is picked from
 * the ones this server has (GET /ui/config.json): with one contract there is nothing to type.
 */
export function LoginScreen({ query }: ScreenProps) {
  const t = useT(messages);
  const { login, endedBecause } = useSession();
  const [contracts, setContracts] = useState<Contract[] | null>(null);
  const [contractId, setContractId] = useState('');
  // The setup screen sends its new staff member here with the staff code filled in.
  const [staffCode, setStaffCode] = useState(query.get('staff') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ProblemView | null>(null);

  useEffect(() => {
    let live = true;
    void loadUiConfig().then((result) => {
      if (!live) return;
      if (!result.ok) {
        // Without the list the contract id is typed in.
        setContracts([]);
        setProblem(result.problem);
        return;
      }
      // A server without a contract is set up first (screens/setup).
      if (result.data.contracts.length === 0) return navigate('/setup', { replace: true });
      setContracts(result.data.contracts);
      setContractId((current) => current || result.data.contracts[0]?.id || '');
    });
    return () => {
      live = false;
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const result = await requestUserToken(contractId.trim(), staffCode.trim(), password);
    setBusy(false);
    if (!result.ok) {
      setProblem(loginProblem(result.problem));
      setPassword('');
      // Straight back to the password, which the error is read with (aria-describedby).
      document.querySelector<HTMLInputElement>('input[name="password"]')?.focus();
      return;
    }
    const contract = contracts?.find((c) => c.id === contractId.trim());
    login({
      contractId: contractId.trim(),
      contractName: contract?.name ?? contractId.trim(),
      plan: contract?.plan ?? '',
      timeZone: contract?.timeZone ?? DEFAULT_TIME_ZONE,
      staffCode: staffCode.trim(),
      token: result.data.access_token,
      expiresAt: Date.now() + result.data.expires_in * 1000,
      scope: result.data.scope,
    });
    navigate(HOME);
  };

  /** The server's OAuth answers, put where the staff member looks: on the password, in their language. */
  function loginProblem(p: ProblemView): ProblemView {
    if (p.status === 400 && p.messages.some((m) => /username or password/.test(m))) return { ...p, messages: [], fields: { password: t('login.failed') } };
    if (p.status === 429) return { ...p, messages: [t('login.tooMany')] };
    // The public client is refused only for a contract this server does not have.
    if (p.status === 401) return { ...p, messages: [], fields: { contract_id: t('login.unknownContract') } };
    // username / password are what the server calls the staff code and the password.
    const fields = { ...p.fields };
    if (fields.username) fields.staffCode = fields.username;
    return { ...p, fields };
  }

  const single = contracts?.length === 1;
  const notice = endedBecause === 'expired' ? t('error.sessionExpired') : endedBecause === 'user' ? t('login.loggedOut') : null;

  return (
    <main id="main" className="container">
      <article className="login">
        <header>
          <h1>{t('app.title')}</h1>
          <LanguageSwitch />
        </header>
        <h2>{t('login.title')}</h2>
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <form onSubmit={submit} noValidate aria-busy={contracts === null}>
          <FormProblem problem={problem} shown={['contract_id', 'staffCode', 'username', 'password']} />
          {contracts && contracts.length > 1 ? (
            <Field label={t('login.contract')} name="contract_id" error={fieldError(problem, 'contract_id')} required>
              <select value={contractId} onChange={(e) => setContractId(e.target.value)}>
                {contracts.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name === c.id ? c.id : `${c.name} (${c.id})`}
                  </option>
                ))}
              </select>
            </Field>
          ) : (
            <Field
              label={t('login.contractId')}
              name="contract_id"
              value={contractId}
              onChange={(e) => setContractId(e.target.value)}
              readOnly={single}
              autoComplete="organization"
              required
              error={fieldError(problem, 'contract_id')}
            />
          )}
          <Field
            label={t('login.staffCode')}
            name="staffCode"
            value={staffCode}
            onChange={(e) => setStaffCode(e.target.value)}
            autoComplete="username"
            autoFocus={!query.get('staff')}
            required
            error={fieldError(problem, 'staffCode')}
          />
          <Field
            label={t('login.password')}
            name="password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            autoFocus={!!query.get('staff')}
            required
            error={fieldError(problem, 'password')}
          />
          <button type="submit" disabled={busy || !contractId.trim() || !staffCode.trim() || !password} aria-busy={busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
      </article>
    </main>
  );
}
