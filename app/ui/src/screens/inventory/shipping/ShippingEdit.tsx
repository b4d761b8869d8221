import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { useLang, useT } from '../../../i18n';
import { quantity } from '../../../shared/format';
import type { Refs } from '../data';
import { changed, remapPositions } from '../fields';
import { lineFieldNames, newLine, ProductLines, type Line } from '../ProductLines';
import { messages } from './i18n';
import { ShippingDates } from './ShippingDates';
import type { Run, Shipping } from './ShippingDetail';

const HEADER = ['shippingDate', 'receivingExpectedDateFrom', 'receivingExpectedDateTo', 'identificationNo', 'memo'] as const;
type Header = Record<(typeof HEADER)[number], string>;

const headerOf = (s: Shipping): Header => ({
  shippingDate: s.shippingDate,
  receivingExpectedDateFrom: s.receivingExpectedDateFrom,
  receivingExpectedDateTo: s.receivingExpectedDateTo,
  identificationNo: s.identificationNo ?? '',
  memo: s.memo ?? '',
});

/**
 * The shipping side's contents: dates, memo and the products sent. Editable before inspection
 * (a sent shipping's corrected quantities move the stock at once) and, in inspection, only under
 * an open modification request, whose completion carries the edits to the receiving side. Only
 * what changed is sent; an existing line is changed by its shippingDetailId (set 0 to send none).
 */
export function ShippingEdit({ shipping, refs, editable, note, run, busy }: { shipping: Shipping; refs: Refs; editable: boolean; note: string | null; run: Run; busy: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  const { api, contract } = useApi();
  const before = headerOf(shipping);
  const saved = shipping.details ?? [];
  const [values, setValues] = useState<Header>(before);
  const [lines, setLines] = useState<Line[]>(() => saved.map((d) => newLine({ detailId: d.shippingDetailId, productId: d.productId, quantity: d.quantity })));
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const set = (key: keyof Header) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (field: string) => fieldError(problem, field);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const header = changed(values, before);
    const sent: number[] = [];
    const details = lines.flatMap((l, i) => {
      const original = saved.find((d) => d.shippingDetailId === l.detailId);
      if (original && original.quantity === l.quantity.trim()) return [];
      sent.push(i);
      return [l.detailId ? { shippingDetailId: l.detailId, quantity: l.quantity.trim() } : { productId: refs.resolveProduct(l.productId), quantity: l.quantity.trim() }];
    });
    const body = { ...header, ...(details.length ? { details } : {}) };
    if (!Object.keys(body).length) {
      setProblem({ status: 0, title: '', fields: {}, messages: [t('ship.nothingChanged')] });
      return;
    }
    const result = await run(
      () => call(api.PATCH('/{contract_id}/pos/shipping/{shipping_id}', { params: { path: { ...contract, shipping_id: shipping.shippingId } }, body })),
      t('ship.edited'),
    );
    // Positions in the answer are of the lines sent; put each message on its own line.
    setProblem(result && remapPositions(result, 'details', sent));
  };

  if (!editable) {
    return (
      <section className="inv-panel" data-testid="shipping-lines">
        <h3>{t('ship.contents')}</h3>
        {note ? <p className="inv-muted">{note}</p> : null}
        <DataTable
          className="inv-table"
          rows={saved}
          rowKey={(d) => d.shippingDetailId}
          rowProps={(d) => ({ 'data-product': d.productId })}
          columns={[
            { key: 'product', header: t('inv.product'), cell: (d) => refs.productLabel(d.productId) },
            { key: 'quantity', header: t('inv.quantity'), num: true, cell: (d) => quantity(d.quantity, lang), cellProps: () => ({ 'data-testid': 'quantity' }) },
          ]}
        />
      </section>
    );
  }

  return (
    <form className="inv-panel inv-form" onSubmit={submit} noValidate data-testid="shipping-edit">
      <h3>{t('ship.contents')}</h3>
      {note ? <p className="inv-muted">{note}</p> : null}
      <FormProblem problem={problem} shown={[...HEADER, ...lineFieldNames('details', lines.length, ['productId', 'quantity', 'shippingDetailId'])]} />
      <div className="inv-grid inv-grid-3">
        <ShippingDates values={values} onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))} problem={problem} />
      </div>
      <div className="inv-grid">
        <Field label={t('inv.identificationNo')} name="identificationNo" value={values.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
        <Field label={t('inv.memo')} name="memo" value={values.memo} onChange={set('memo')} error={err('memo')} />
      </div>
      <ProductLines lines={lines} onChange={setLines} refs={refs} problem={problem} prefix="details" idField="shippingDetailId" caption={t('ship.lines')} />
      <div className="inv-buttons">
        <button type="submit" disabled={busy}>
          {t('ship.saveEdit')}
        </button>
      </div>
    </form>
  );
}
