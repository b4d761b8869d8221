import type { ProblemView } from '../../api/problem';
import { Badge } from '../../components/Badge';
import { DataTable } from '../../components/DataTable';
import { Loading } from '../../components/LoadState';
import { useLang, type Lang, type Translate } from '../../i18n';
import { LOCALES, useFormat } from '../../shared/format';
import { downloadHref } from './download';
import type { ExportKey } from './i18n';
import type { TrackedExport } from './recent';

type T = Translate<ExportKey>;

/** `860 byte`, `12.4 kB`, `3.1 MB` */
export function fileSize(bytes: number, lang: Lang): string {
  const [value, unit] = bytes < 1024 ? [bytes, 'byte'] : bytes < 1024 * 1024 ? [bytes / 1024, 'kilobyte'] : [bytes / (1024 * 1024), 'megabyte'];
  return new Intl.NumberFormat(LOCALES[lang], { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

const problemText = (p: ProblemView) => [...Object.values(p.fields), ...p.messages].join('; ');

/**
 * Where one export stands: its status, a progress bar of the rows written of the total, and
 * once done the download link (on this page's origin, see downloadHref) with the file's name,
 * size and expiry; no data and failures as a message.
 */
export function ExportState({ t, tracked }: { t: T; tracked: TrackedExport }) {
  const f = useFormat();
  const { lang } = useLang();
  const p = tracked.progress;
  if (tracked.problem) {
    return (
      <p className="field-error" data-testid="export-state" data-status="gone">
        {t('export.gone', { message: problemText(tracked.problem) })}
      </p>
    );
  }
  if (!p) return <Loading text={t('export.status.loading')} />;

  const number = (n: number) => n.toLocaleString(LOCALES[lang]);
  const rows = p.total === null ? t('export.rowsUncounted', { rows: number(p.rowsWritten) }) : t('export.rows', { rows: number(p.rowsWritten), total: number(p.total) });
  const done = p.status === 'succeeded';
  // Indeterminate (no value) while the total is not counted yet; full once done.
  const bar = done ? { value: p.total ?? p.rowsWritten, max: p.total ?? p.rowsWritten } : p.total === null ? {} : { value: p.rowsWritten, max: p.total };

  return (
    <div className="export-state" data-testid="export-state" data-status={p.status} data-message={p.message}>
      <p role="status" className="export-status-line">
        <Badge status={`export-${p.status}`}>{t(`export.status.${p.status}`)}</Badge>
        {p.status === 'failed' ? null : <span data-testid="export-rows"> {rows}</span>}
      </p>
      {p.status === 'failed' ? null : (
        <progress data-testid="export-progress" aria-label={t('export.progress')} aria-valuetext={rows} {...bar} />
      )}
      {done && p.fileUrl && p.fileName ? (
        <p className="export-download">
          <a href={downloadHref(p.fileUrl, window.location.origin)} download={p.fileName} data-testid="download">
            {t('export.downloadLink', { file: p.fileName, size: fileSize(p.fileBytes ?? 0, lang) })}
          </a>{' '}
          {p.expireDateTime ? <small className="muted">{t('export.expires', { time: f.dateTime(p.expireDateTime) })}</small> : null}
        </p>
      ) : null}
      {done && !p.fileUrl ? <p className="muted">{t('export.expired')}</p> : null}
      {p.status === 'failed' ? (
        <p className="field-error" data-testid="export-failure">
          {p.message === 'no data' ? t('export.noData') : t('export.failed', { message: p.message || p.status })}
        </p>
      ) : null}
    </div>
  );
}

/** What was asked: the range, how many columns, the sort. */
function Asked({ t, tracked }: { t: T; tracked: TrackedExport }) {
  const f = useFormat();
  const r = tracked.request;
  return (
    <>
      {t('export.period', { from: f.dateTime(r.from), to: f.dateTime(r.to) })} · {t('export.columnsAsked', { count: r.columns })} · <code>{r.sort}</code>
    </>
  );
}

/** The export requested last, in full. */
export function CurrentExport({ t, tracked }: { t: T; tracked: TrackedExport }) {
  const f = useFormat();
  return (
    <article className="export-current" data-testid="export-current" data-request-code={tracked.request.requestCode} aria-labelledby="export-current-title">
      <h2 id="export-current-title">{t('export.current')}</h2>
      <p className="muted">
        {t('export.requestCode', { code: tracked.request.requestCode })} · {t('export.requestedAt', { time: f.dateTime(tracked.request.requestedAt) })}
        <br />
        <Asked t={t} tracked={tracked} />
      </p>
      <ExportState t={t} tracked={tracked} />
    </article>
  );
}

/** The earlier requests of this window's session, each with its state (a link while its file is valid). */
export function RecentExports({ t, exports }: { t: T; exports: TrackedExport[] }) {
  const f = useFormat();
  if (!exports.length) return null;
  return (
    <section className="export-recent" aria-labelledby="export-recent-title">
      <h2 id="export-recent-title">{t('export.recent')}</h2>
      <DataTable
        className="striped"
        data-testid="recent-exports"
        rows={exports}
        rowKey={(e) => e.request.requestCode}
        rowProps={(e) => ({ 'data-request-code': e.request.requestCode })}
        columns={[
          {
            key: 'requestedAt',
            header: t('col.requestedAt'),
            cell: (e) => (
              <>
                {f.dateTime(e.request.requestedAt)}
                <br />
                <small className="muted">{t('export.requestCode', { code: e.request.requestCode })}</small>
              </>
            ),
          },
          {
            key: 'period',
            header: t('col.period'),
            cell: (e) => (
              <small>
                <Asked t={t} tracked={e} />
              </small>
            ),
          },
          { key: 'status', header: t('col.status'), cell: (e) => <ExportState t={t} tracked={e} /> },
        ]}
      />
    </section>
  );
}
