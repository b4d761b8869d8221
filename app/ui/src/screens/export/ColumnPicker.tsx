import { useId } from 'react';
import { useLang, type Translate } from '../../i18n';
import { COLUMN_LABELS_JA, DETAIL_COLUMNS, EXPORT_COLUMNS, HEADER_COLUMNS, type ExportColumn } from './columns';
import type { ExportKey } from './i18n';

interface Props {
  t: Translate<ExportKey>;
  chosen: readonly ExportColumn[];
  onChange(columns: readonly ExportColumn[]): void;
  /** The API's (or the screen's) message for `fields`. */
  error?: string | undefined;
}

/**
 * The `fields` of the export: a checkbox per CSV column, grouped as the file has them (header
 * columns, then line columns). Each shows the column's name as the header row writes it and,
 * in Japanese, what it holds. The file keeps this order whatever order they are ticked in.
 */
export function ColumnPicker({ t, chosen, onChange, error }: Props) {
  const { lang } = useLang();
  const errorId = useId();
  const set = new Set(chosen);
  const toggle = (column: ExportColumn, on: boolean) => onChange(on ? [...chosen, column] : chosen.filter((c) => c !== column));

  const group = (title: string, columns: readonly ExportColumn[]) => (
    <fieldset className="export-column-group">
      <legend>{title}</legend>
      <div className="export-column-grid">
        {columns.map((column) => (
          <label key={column} data-column={column}>
            <input type="checkbox" name="fields" value={column} checked={set.has(column)} onChange={(e) => toggle(column, e.target.checked)} />
            <code>{column}</code>
            {lang === 'ja' ? <span className="muted"> {COLUMN_LABELS_JA[column]}</span> : null}
          </label>
        ))}
      </div>
    </fieldset>
  );

  return (
    <fieldset className="export-columns" data-field="fields" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend>
        <strong>{t('export.columns')}</strong>{' '}
        <span className="muted" data-testid="columns-count" data-count={chosen.length}>
          {t('export.columnsCount', { count: chosen.length, total: EXPORT_COLUMNS.length })}
        </span>
      </legend>
      <div className="export-column-tools">
        <button type="button" className="secondary outline" onClick={() => onChange(EXPORT_COLUMNS)} disabled={chosen.length === EXPORT_COLUMNS.length}>
          {t('export.selectAll')}
        </button>
        <button type="button" className="secondary outline" onClick={() => onChange([])} disabled={chosen.length === 0}>
          {t('export.selectNone')}
        </button>
        <small className="muted">{t('export.columnsHint')}</small>
      </div>
      {error ? (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      ) : null}
      <div className="export-column-scroll">
        {group(t('export.headerColumns'), HEADER_COLUMNS)}
        {group(t('export.detailColumns'), DETAIL_COLUMNS)}
      </div>
    </fieldset>
  );
}
