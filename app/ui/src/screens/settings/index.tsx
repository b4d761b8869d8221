import { useEffect, useState, type FormEvent } from 'react';
import { call, useApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { ScreenHead } from '../../components/ScreenHead';
import { useT } from '../../i18n';
import type { ScreenProps } from '../../router';
import { addressOn, bodyOf, formOf, restartsServer, type DesktopSettings, type SettingsForm } from './form';
import { messages } from './i18n';
import './settings.css';

const SHOWN = ['port', 'lan', 'uiLan', 'startAtLogin', 'backupFolder', 'backupKeep'];

type Saved = { restarting: boolean; newAddress: string | null };

/**
 * The desktop app's settings (issue 21), instead of editing desktop-settings.json by hand: the
 * port and LAN access the register terminals depend on, start at login, the backups. The app
 * applies a saved change by itself; one of port or LAN access restarts the server, which the
 * screen says before and after saving. A server not run by the desktop app has none: it answers
 * `{ desktopApp: false }` (200, so an ordinary visit makes no failing request, issue 20).
 */
export function SettingsScreen(_props: ScreenProps) {
  const t = useT(messages);
  const { api, contract } = useApi();
  const [saved, setSaved] = useState<DesktopSettings | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [absent, setAbsent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Saved | null>(null);

  useEffect(() => {
    let live = true;
    void call(api.GET('/{contract_id}/pos/desktop_settings', { params: { path: contract } })).then((r) => {
      if (!live) return;
      if (!r.ok) setProblem(r.problem);
      else if (!r.data.desktopApp) setAbsent(true);
      else {
        setSaved(r.data);
        setForm(formOf(r.data));
      }
    });
    return () => {
      live = false;
    };
  }, [api, contract]);

  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => {
    setForm((old) => (old ? { ...old, [key]: value } : old));
    setDone(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form || !saved) return;
    setBusy(true);
    const r = await call(api.PUT('/{contract_id}/pos/desktop_settings', { params: { path: contract }, body: bodyOf(form) }));
    setBusy(false);
    if (!r.ok) {
      setProblem(r.problem);
      return;
    }
    setProblem(null);
    const portChanged = r.data.port !== saved.port && r.data.port !== null;
    setDone({ restarting: r.data.restartsServer, newAddress: portChanged ? addressOn(r.data.port!, window.location) : null });
    setSaved(r.data);
    setForm(formOf(r.data));
  }

  const error = (field: string) => fieldError(problem, field);
  const head = <ScreenHead title={t('settings.title')} sub={<p className="muted">{t('settings.intro')}</p>} />;
  if (absent) {
    return (
      <section className="settings-screen">
        {head}
        <p role="note" data-testid="settings-absent">
          {t('settings.notDesktop')}
        </p>
      </section>
    );
  }
  if (!form || !saved) {
    return (
      <section className="settings-screen">
        {head}
        {problem ? <FormProblem problem={problem} /> : <Loading />}
      </section>
    );
  }

  const check = (key: 'lan' | 'uiLan' | 'startAtLogin', label: string, hint: string) => (
    <div className="field settings-check" data-field={key}>
      <label>
        <input type="checkbox" name={key} role="switch" checked={form[key]} onChange={(e) => set(key, e.target.checked)} aria-invalid={error(key) ? true : undefined} />
        {label}
      </label>
      {error(key) ? <small className="field-error">{error(key)}</small> : null}
      <small>{hint}</small>
    </div>
  );
  const restarts = restartsServer(saved, form);

  return (
    <section className="settings-screen">
      {head}
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('settings.title')} className="settings-form">
        <fieldset>
          <legend>{t('settings.terminals')}</legend>
          <Field label={t('settings.port')} name="port" inputMode="numeric" value={form.port} onChange={(e) => set('port', e.target.value)} error={error('port')} hint={t('settings.portHint')} />
          {check('lan', t('settings.lan'), t('settings.lanHint'))}
          {check('uiLan', t('settings.uiLan'), t('settings.uiLanHint'))}
        </fieldset>
        <fieldset>
          <legend>{t('settings.startup')}</legend>
          {check('startAtLogin', t('settings.startAtLogin'), t('settings.startAtLoginHint'))}
        </fieldset>
        <fieldset>
          <legend>{t('settings.backups')}</legend>
          <Field
            label={t('settings.backupFolder')}
            name="backupFolder"
            value={form.backupFolder}
            placeholder={saved.defaultBackupFolder}
            onChange={(e) => set('backupFolder', e.target.value)}
            error={error('backupFolder')}
            hint={t('settings.backupFolderHint', { folder: saved.defaultBackupFolder })}
          />
          <Field label={t('settings.backupKeep')} name="backupKeep" inputMode="numeric" value={form.backupKeep} onChange={(e) => set('backupKeep', e.target.value)} error={error('backupKeep')} hint={t('settings.backupKeepHint')} />
        </fieldset>
        {restarts ? (
          <p role="note" className="settings-warning" data-testid="settings-restart-warning">
            {t('settings.restartWarning')}
          </p>
        ) : null}
        <FormProblem problem={problem} shown={SHOWN} />
        <button type="submit" data-testid="settings-save" aria-busy={busy || undefined} disabled={busy}>
          {busy ? t('settings.saving') : t('settings.save')}
        </button>
        {done ? (
          <div role="status" className="settings-done" data-testid="settings-saved">
            <p>{done.restarting ? t('settings.savedRestarting') : t('settings.saved')}</p>
            {done.newAddress ? (
              <p>
                {t('settings.newAddress')} <a href={done.newAddress}>{done.newAddress}</a>
              </p>
            ) : null}
          </div>
        ) : null}
      </form>
    </section>
  );
}
