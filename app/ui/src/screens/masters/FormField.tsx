import { Field } from '../../components/Field';
import { SelectField } from '../../components/SelectField';
import { useLang, useT } from '../../i18n';
import { messages } from './i18n';
import type { RefOptions } from './refs';
import type { Prop } from './spec';
import { pairsOf, pairsToList, pairsValue, type FormValue } from './values';
import { hintOf } from './view';

/**
 * One field of a master form, drawn from its Prop: a text input, textarea, date, checkbox, or
 * a select of fixed options or of another master (ref). No maxLength/pattern in the browser:
 * the API is the one place the rules live, and its message is shown under the field.
 */
export function FormField(props: {
  name: string;
  prop: Prop;
  value: FormValue;
  refs: RefOptions;
  creating: boolean;
  disabled: boolean;
  error: string | undefined;
  /** Every field error of the problem (a `pairs` field finds its rows' `name[i].value` in it). */
  errors: Readonly<Record<string, string>>;
  onChange(value: FormValue): void;
}) {
  const { name, prop, value, refs, creating, disabled, error, onChange } = props;
  const t = useT(messages);
  const { lang } = useLang();
  const text = typeof value === 'string' ? value : '';
  const common = { label: prop.label[lang], name, error, hint: hintOf(prop, lang, t), required: prop.required };
  const wide = prop.input === 'textarea' ? 'field-wide' : undefined;

  if (prop.input === 'checkbox') {
    return (
      <div className="field-checkbox">
        <Field {...common}>
          <input type="checkbox" role="switch" checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
        </Field>
      </div>
    );
  }
  if (prop.input === 'pairs') return <PairsField {...props} />;
  if (prop.options || prop.ref) {
    const choices = prop.options
      ? Object.entries(prop.options).map(([v, label]) => ({ value: v, label: label[lang] }))
      : (refs[prop.ref!] ?? []);
    // The current value stays choosable even when the pick list does not have it.
    const all = text && !choices.some((c) => c.value === text) ? [{ value: text, label: text }, ...choices] : choices;
    // An empty choice: the API's default when creating, "none" for a field that may be cleared.
    const empty = creating || !prop.required || text === '';
    const emptyLabel = prop.required ? t('masters.choose') : creating && !prop.ref ? t('masters.default') : t('masters.none');
    return <SelectField {...common} value={text} disabled={disabled} onChange={onChange} any={empty ? emptyLabel : undefined} options={all} />;
  }
  if (prop.input === 'textarea') {
    return (
      <div className={wide}>
        <Field {...common}>
          <textarea value={text} rows={3} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
        </Field>
      </div>
    );
  }
  const inputMode = prop.input === 'decimal' ? 'decimal' : prop.input === 'number' ? 'numeric' : undefined;
  return (
    <Field
      {...common}
      type={prop.input === 'date' ? 'date' : 'text'}
      inputMode={inputMode}
      value={text}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * One input per row of the ref (a product's value for each free-item label). The API names a
 * bad entry by its position in the list sent (`reserveItems[1].value`); the list sent is the
 * filled entries in number order (values.ts pairsToList), so position i is found again here.
 */
function PairsField({ name, prop, value, refs, disabled, error, errors, onChange }: Parameters<typeof FormField>[0]) {
  const { lang } = useLang();
  const map = pairsOf(value);
  const sent = pairsToList(value).map((p) => p.no);
  const rows = refs[prop.ref!] ?? [];
  const extra = Object.keys(map).filter((no) => !rows.some((r) => r.value === no));
  return (
    <fieldset className="field-wide" data-field={name}>
      <legend>{prop.label[lang]}</legend>
      {error ? <small className="field-error">{error}</small> : null}
      {prop.hint ? <small>{prop.hint[lang]}</small> : null}
      <div className="master-pairs">
        {[...rows, ...extra.map((no) => ({ value: no, label: no }))].map((row) => {
          const i = sent.indexOf(row.value);
          const rowError = i < 0 ? undefined : (errors[`${name}[${i}].value`] ?? errors[`${name}[${i}].no`]);
          return (
            <Field
              key={row.value}
              label={`${row.value}. ${row.label}`}
              name={`${name}.${row.value}`}
              value={map[row.value] ?? ''}
              disabled={disabled}
              error={rowError}
              onChange={(e) => onChange(pairsValue({ ...map, [row.value]: e.target.value }))}
            />
          );
        })}
      </div>
    </fieldset>
  );
}
