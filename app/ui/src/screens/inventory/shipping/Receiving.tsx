import { useState, type FormEvent, type ReactNode } from 'react';
import { call, useApi, type Result } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { useLang, useT } from '../../../i18n';
import { useFormat, quantity } from '../../../shared/format';
import type { Refs } from '../data';
import { remapPositions } from '../fields';
import { lineFieldNames } from '../ProductLines';
import { messages } from './i18n';
import type { Receiving, Run, Shipping } from './ShippingDetail';

interface Count {
  inspection: string;
  stockout: string;
  reason: string;
}

type Detail = NonNullable<Receiving['details']>[number];

const countOf = (d: Detail): Count => ({
  inspection: d.inspectionQuantity ?? '',
  stockout: d.stockoutQuantity ?? '',
  reason: d.stockoutReason ?? '',
});

/**
 * The receiving store's inspection (入庫検品) of a sent shipping: the receiving date and, per
 * product, what was counted and what is missing. Saving the first time starts the inspection
 * (status 1 → 2); when every line adds up (counted + missing = scheduled) the API completes the
 * receiving by itself. "Receiving complete" saves and completes (2 → 3): the counted quantities
 * (uncounted lines in full) enter the receiving store's stock. While a modification request is
 * open the API refuses receiving updates (409), so the form is locked and says why.
 */
export function ReceivingForm({ shipping, receiving, refs, run, busy }: { shipping: Shipping; receiving: Receiving; refs: Refs; run: Run; busy: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const details = receiving.details ?? [];
  const [date, setDate] = useState(receiving.receivingDate ?? format.today());
  const [counts, setCounts] = useState<Count[]>(() => details.map(countOf));
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const requested = shipping.modificationRequestStatus === '1';
  const complete = receiving.status === '2';
  const locked = requested || complete;
  const path = { ...contract, receiving_id: receiving.receivingId };
  const setCount = (i: number, patch: Partial<Count>) => setCounts((cs) => cs.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const err = (field: string) => fieldError(problem, field);
  const name = (i: number, field: string) => `details[${i}].${field}`;
  const label = (d: Detail, what: string) => <span className="visually-hidden">{`${refs.productLabel(d.productId)} ${what}`}</span>;

  /** PATCH /receiving with the lines whose counts changed (positions mapped back to the lines). */
  const saveCounts = async (): Promise<{ result: Result<Receiving>; sent: number[] }> => {
    const sent: number[] = [];
    const lines = details.flatMap((d, i) => {
      const c = counts[i]!;
      const was = countOf(d);
      if (c.inspection.trim() === '' || (c.inspection === was.inspection && c.stockout === was.stockout && c.reason === was.reason && d.inspectionDate === date)) return [];
      sent.push(i);
      return [
        {
          receivingDetailId: d.receivingDetailId,
          inspectionQuantity: c.inspection.trim(),
          // Nothing typed as missing is none missing.
          stockoutQuantity: c.stockout.trim() || '0',
          ...(c.reason || was.reason ? { stockoutReason: c.reason } : {}),
          inspectionDate: date,
        },
      ];
    });
    const body = { receivingDate: date, ...(lines.length ? { details: lines } : {}) };
    return { result: await call(api.PATCH('/{contract_id}/pos/receiving/{receiving_id}', { params: { path }, body })), sent };
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    let sent: number[] = [];
    const problem = await run(async () => {
      const r = await saveCounts();
      sent = r.sent;
      return r.result;
    }, t('recv.saved'));
    setProblem(problem && remapPositions(problem, 'details', sent));
  };

  const completeReceiving = async () => {
    let sent: number[] = [];
    const problem = await run(async () => {
      const r = await saveCounts();
      sent = r.sent;
      // The counts alone may have completed it; otherwise the shipping's status step 2 → 3 does.
      if (!r.result.ok || r.result.data.status === '2') return r.result;
      return call(api.PATCH('/{contract_id}/pos/shipping/{shipping_id}', { params: { path: { ...contract, shipping_id: shipping.shippingId } }, body: { status: '3' } }));
    }, t('recv.completed'));
    setProblem(problem && remapPositions(problem, 'details', sent));
  };

  return (
    <form className="inv-panel inv-form" onSubmit={save} noValidate data-testid="receiving" data-locked={locked ? 'true' : 'false'}>
      <h3>{t('recv.title', { store: refs.storeName(receiving.receivingStoreId) })}</h3>
      {requested ? (
        <p className="notice" role="note" data-testid="receiving-locked">
          {t('recv.lockedByRequest')}
        </p>
      ) : complete ? (
        <p className="inv-muted">{t('recv.completeNote')}</p>
      ) : (
        <p className="inv-muted">{t('recv.hint')}</p>
      )}
      <FormProblem problem={problem} shown={['receivingDate', ...lineFieldNames('details', details.length, ['inspectionQuantity', 'stockoutQuantity', 'stockoutReason', 'receivingDetailId'])]} />
      <fieldset disabled={locked} className="inv-fieldset">
        <Field label={t('recv.date')} name="receivingDate" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={err('receivingDate')} />
        <DataTable
          className="inv-table inv-recv-table"
          rows={details}
          rowKey={(d) => d.receivingDetailId}
          rowProps={(d) => ({ 'data-product': d.productId })}
          columns={[
            {
              key: 'product',
              header: t('inv.product'),
              cell: (d, i) => (
                <>
                  {refs.productLabel(d.productId)}
                  {err(name(i, 'receivingDetailId')) ? <small className="field-error">{err(name(i, 'receivingDetailId'))}</small> : null}
                </>
              ),
            },
            { key: 'scheduled', header: t('recv.scheduled'), num: true, cell: (d) => quantity(d.scheduledQuantity, lang), cellProps: () => ({ 'data-testid': 'scheduled' }) },
            {
              key: 'counted',
              header: t('recv.counted'),
              cellClass: 'inv-qty-cell',
              cell: (d, i) => <CountField label={label(d, t('recv.counted'))} name={name(i, 'inspectionQuantity')} value={counts[i]!.inspection} onChange={(inspection) => setCount(i, { inspection })} error={err(name(i, 'inspectionQuantity'))} />,
            },
            {
              key: 'missing',
              header: t('recv.missing'),
              cellClass: 'inv-qty-cell',
              cell: (d, i) => (
                <CountField label={label(d, t('recv.missing'))} name={name(i, 'stockoutQuantity')} value={counts[i]!.stockout} placeholder="0" onChange={(stockout) => setCount(i, { stockout })} error={err(name(i, 'stockoutQuantity'))} />
              ),
            },
            {
              key: 'reason',
              header: t('recv.reason'),
              cell: (d, i) => (
                <Field label={label(d, t('recv.reason'))} name={name(i, 'stockoutReason')} value={counts[i]!.reason} onChange={(e) => setCount(i, { reason: e.target.value })} error={err(name(i, 'stockoutReason'))} />
              ),
            },
            {
              key: 'inspected',
              header: t('inv.status'),
              cellClass: 'inv-nowrap',
              cell: (d) => (d.status === '1' ? t('recv.inspected') : t('recv.notInspected')),
              cellProps: () => ({ 'data-testid': 'inspected' }),
            },
          ]}
        />
        {complete ? null : (
          <div className="inv-buttons">
            <button type="submit" className="secondary" disabled={busy}>
              {receiving.status === '0' ? t('recv.start') : t('recv.save')}
            </button>
            <button type="button" disabled={busy} onClick={() => void completeReceiving()}>
              {t('recv.complete')}
            </button>
          </div>
        )}
      </fieldset>
    </form>
  );
}

/** A counted or missing quantity of a receiving line (whole numbers, 0 or more). */
function CountField({ label, name, value, onChange, error, placeholder }: { label: ReactNode; name: string; value: string; onChange(value: string): void; error: string | undefined; placeholder?: string }) {
  return (
    <Field label={label} name={name} type="number" min={0} step={1} inputMode="numeric" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} error={error} />
  );
}
