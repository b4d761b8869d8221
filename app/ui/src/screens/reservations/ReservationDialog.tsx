import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call, useApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { useT } from '../../i18n';
import { useFormat } from '../../shared/format';
import { messages } from './i18n';
import { changedFields, emptyForm, FORM_FIELDS, formOf, SETTABLE_STATUSES, tableErrors, toFields, type FormValues } from './reservationForm';
import type { Reservation, Table } from './useDayData';

export type DialogOutcome = 'saved' | 'canceled' | 'deleted';

interface Props {
  storeId: string;
  date: string;
  tables: Table[];
  /** null: a new reservation. */
  reservation: Reservation | null;
  onClose(outcome?: DialogOutcome): void;
}

/**
 * Create or edit a reservation in a modal <dialog> (focus stays inside, Esc closes). The API
 * decides what may change: an imported reservation is read-only (405), one seated at a table use
 * cannot be canceled or deleted (405); each refusal is shown on the field it names.
 */
export function ReservationDialog({ storeId, date, tables, reservation, onClose }: Props) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const ref = useRef<HTMLDialogElement>(null);
  const [values, setValues] = useState<FormValues>(() => (reservation ? formOf(reservation, format.timeZone) : emptyForm(date)));
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);
  const imported = reservation?.reservationCode != null;
  const bound = reservation?.tableUseId != null;
  const words = { count: t('reservations.mustBeCount'), time: t('reservations.mustBeTime') };

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const toggleTable = (id: string, on: boolean) => set('tableIds', on ? [...values.tableIds, id] : values.tableIds.filter((x) => x !== id));

  const run = async (action: () => Promise<{ ok: true } | { ok: false; problem: ProblemView }>, outcome: DialogOutcome) => {
    setBusy(true);
    setProblem(null);
    const result = await action();
    setBusy(false);
    if (result.ok) onClose(outcome);
    else setProblem(result.problem);
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    const next = toFields(values, format.timeZone, words);
    if ('problem' in next) return setProblem(next.problem);
    void run(async () => {
      if (!reservation) {
        return call(api.POST('/{contract_id}/waiter/reservations', { params: { path: contract }, body: { storeId, ...next.fields } }));
      }
      const before = toFields(formOf(reservation, format.timeZone), format.timeZone, words);
      const body = 'fields' in before ? changedFields(next.fields, before.fields) : next.fields;
      if (!Object.keys(body).length) return { ok: true };
      return call(api.PATCH('/{contract_id}/waiter/reservations/{reservation_id}', { params: { path: { ...contract, reservation_id: reservation.id } }, body }));
    }, 'saved');
  };

  const cancelReservation = () =>
    reservation &&
    void run(
      () =>
        call(
          api.PATCH('/{contract_id}/waiter/reservations/{reservation_id}', {
            params: { path: { ...contract, reservation_id: reservation.id } },
            body: { status: 'canceled' },
          }),
        ),
      'canceled',
    );

  const remove = () => {
    if (!reservation || !window.confirm(t('reservations.confirmDelete', { id: reservation.id }))) return;
    void run(
      () => call(api.DELETE('/{contract_id}/waiter/reservations/{reservation_id}', { params: { path: { ...contract, reservation_id: reservation.id } } })),
      'deleted',
    );
  };

  const err = (field: string) => fieldError(problem, field);
  const shown = [...FORM_FIELDS, ...Object.keys(problem?.fields ?? {}).filter((f) => f.startsWith('tableIds['))];
  const tablesError = tableErrors(problem);
  const readOnly = imported || busy;
  const title = reservation ? t('reservations.edit', { id: reservation.id }) : t('reservations.create');

  return (
    <dialog ref={ref} aria-labelledby="resv-dialog-title" onCancel={(e) => (e.preventDefault(), onClose())} className="resv-dialog">
      <article>
        <header>
          <button type="button" rel="prev" aria-label={t('common.close')} onClick={() => onClose()} />
          <h2 id="resv-dialog-title">{title}</h2>
        </header>
        {imported ? (
          <p className="notice" role="note">
            {t('reservations.imported', { source: reservation.reservedFrom, code: reservation.reservationCode ?? '' })}
          </p>
        ) : null}
        {bound ? (
          <p className="notice" role="note">
            {t('reservations.bound', { id: reservation?.tableUseId ?? '' })}
          </p>
        ) : null}
        <FormProblem problem={problem} shown={shown} />
        <form onSubmit={save} noValidate aria-busy={busy}>
          <fieldset disabled={readOnly} className="resv-form">
            <div className="grid">
              <Field label={t('reservations.date')} name="date" type="date" value={values.date} onChange={(e) => set('date', e.target.value)} required />
              <Field label={t('reservations.startTime')} name="startAt" type="time" value={values.startTime} onChange={(e) => set('startTime', e.target.value)} error={err('startAt')} required />
              <Field
                label={t('reservations.endTime')}
                name="endAt"
                type="time"
                value={values.endTime}
                onChange={(e) => set('endTime', e.target.value)}
                error={err('endAt')}
                hint={values.endTime && values.endTime <= values.startTime ? t('reservations.endNextDay') : undefined}
                required
              />
            </div>
            <div className="grid">
              <Field label={t('reservations.adults')} name="persons.adults" type="number" min={0} max={9999} inputMode="numeric" value={values.adults} onChange={(e) => set('adults', e.target.value)} error={err('persons.adults') ?? err('persons')} required />
              <Field label={t('reservations.children')} name="persons.children" type="number" min={0} max={9999} inputMode="numeric" value={values.children} onChange={(e) => set('children', e.target.value)} error={err('persons.children')} required />
              <Field label={t('reservations.status')} name="status" error={err('status')}>
                <select value={values.status} onChange={(e) => set('status', e.target.value as FormValues['status'])}>
                  {(values.status === 'paid' ? ['paid' as const] : SETTABLE_STATUSES).map((s) => (
                    <option key={s} value={s}>
                      {t(`reservations.status.${s}`)}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <div className="grid">
              <Field label={t('reservations.name')} name="reservationPersonName" value={values.name} onChange={(e) => set('name', e.target.value)} error={err('reservationPersonName')} autoComplete="off" />
              <Field label={t('reservations.nameKana')} name="reservationPersonNameKana" value={values.nameKana} onChange={(e) => set('nameKana', e.target.value)} error={err('reservationPersonNameKana')} autoComplete="off" />
              <Field label={t('reservations.phone')} name="phoneNumber" type="tel" value={values.phone} onChange={(e) => set('phone', e.target.value)} error={err('phoneNumber')} autoComplete="off" />
            </div>
            <fieldset className="field resv-tables" data-field="tableIds" aria-invalid={tablesError ? true : undefined} aria-describedby={tablesError ? 'resv-tables-error' : undefined}>
              <legend>{t('reservations.tables')}</legend>
              {tables.map((table) => (
                <label key={table.tableId}>
                  <input type="checkbox" name="tableIds" value={table.tableId} checked={values.tableIds.includes(table.tableId)} onChange={(e) => toggleTable(table.tableId, e.target.checked)} />
                  {table.name}
                </label>
              ))}
              {tablesError ? (
                <small id="resv-tables-error" className="field-error">
                  {tablesError}
                </small>
              ) : null}
            </fieldset>
            <Field label={t('reservations.note')} name="note" error={err('note')}>
              <textarea rows={2} value={values.note} onChange={(e) => set('note', e.target.value)} />
            </Field>
          </fieldset>
          <footer className="resv-dialog-actions">
            {reservation && !imported && !bound && reservation.status !== 'canceled' && reservation.status !== 'paid' ? (
              <button type="button" className="secondary outline" onClick={cancelReservation} disabled={busy}>
                {t('reservations.cancelReservation')}
              </button>
            ) : null}
            {reservation && !bound ? (
              <button type="button" className="secondary outline" onClick={remove} disabled={busy}>
                {t('reservations.delete')}
              </button>
            ) : null}
            <span className="resv-spacer" />
            <button type="button" className="secondary" onClick={() => onClose()}>
              {t('common.close')}
            </button>
            {!imported ? (
              <button type="submit" disabled={busy}>
                {t('common.save')}
              </button>
            ) : null}
          </footer>
        </form>
      </article>
    </dialog>
  );
}
