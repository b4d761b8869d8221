import { fieldError, type ProblemView } from '../../../api/problem';
import { Field } from '../../../components/Field';
import { useT } from '../../../i18n';
import { messages } from './i18n';

export type DateField = 'shippingDate' | 'receivingExpectedDateFrom' | 'receivingExpectedDateTo';

/** A shipping's date and the receiving store's expected dates (from, to), each with the API's message for it. */
export function ShippingDates({ values, onChange, problem, required }: { values: Record<DateField, string>; onChange(field: DateField, value: string): void; problem: ProblemView | null; required?: boolean }) {
  const t = useT(messages);
  const fields = [
    ['shippingDate', t('ship.shippingDate')],
    ['receivingExpectedDateFrom', t('ship.expectedFrom')],
    ['receivingExpectedDateTo', t('ship.expectedTo')],
  ] as const;
  return (
    <>
      {fields.map(([name, label]) => (
        <Field key={name} label={label} name={name} type="date" value={values[name]} onChange={(e) => onChange(name, e.target.value)} error={fieldError(problem, name)} required={required} />
      ))}
    </>
  );
}
