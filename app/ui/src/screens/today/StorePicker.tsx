import { useEffect, useState } from 'react';
import { call, useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import type { Translate } from '../../i18n';
import type { salesLabels } from './labels';
import type { Store } from './sales';

/** The contract's stores (one page of up to 1000); normal stores first, then warehouses. */
export function useStores(): { stores: Store[] | null; problem: ProblemView | null } {
  const { api, contract } = useApi();
  const [state, setState] = useState<{ stores: Store[] | null; problem: ProblemView | null }>({ stores: null, problem: null });
  useEffect(() => {
    let live = true;
    void call(api.GET('/{contract_id}/pos/stores', { params: { path: contract, query: { limit: '1000', sort: 'storeId' } } })).then((r) => {
      if (!live) return;
      if (!r.ok) setState({ stores: [], problem: r.problem });
      else setState({ stores: [...r.data].sort((a, b) => Number(a.division) - Number(b.division) || Number(a.storeId) - Number(b.storeId)), problem: null });
    });
    return () => {
      live = false;
    };
  }, [api, contract]);
  return state;
}

/** The store a screen shows: the one in the URL if it exists, else the first normal store. */
export function pickStore(stores: readonly Store[] | null, wanted: string | null): Store | null {
  if (!stores?.length) return null;
  return stores.find((s) => s.storeId === wanted) ?? stores.find((s) => s.division === '1') ?? stores[0]!;
}

type LabelKey = keyof (typeof salesLabels)['ja'];

/**
 * A labelled store <select>, shown only when the contract has several stores (with one there is
 * nothing to choose: its name is shown instead). `error` is the API's message for storeId.
 */
export function StorePicker({
  t,
  stores,
  value,
  onChange,
  error,
}: {
  t: Translate<LabelKey>;
  stores: readonly Store[];
  value: string;
  onChange: (storeId: string) => void;
  error?: string | undefined;
}) {
  const name = (s: Store) => (s.division === '2' ? t('store.warehouse', { name: s.storeName }) : s.storeName);
  if (stores.length === 1 && !error) {
    return (
      <p className="store-name" data-testid="store-name">
        {t('store.label')}: <strong>{name(stores[0]!)}</strong>
      </p>
    );
  }
  return (
    <Field label={t('store.label')} name="storeId" error={error}>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid="store-picker">
        {stores.map((s) => (
          <option key={s.storeId} value={s.storeId}>
            {name(s)}
          </option>
        ))}
      </select>
    </Field>
  );
}
