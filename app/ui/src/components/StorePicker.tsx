import type { Translate } from '../i18n';
import type { salesLabels } from '../shared/salesLabels';
import type { Store } from '../shared/stores';
import { Field } from './Field';

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
