import { useT } from '../i18n';

/**
 * Previous / next page buttons around the page number, for a list the API pages with its Link
 * header (`hasPrev`, `hasNext`). `go(page)` shows that page; the number is read out as it changes
 * unless `live` is false.
 */
export function Pager({
  label,
  page,
  pageText,
  hasPrev,
  hasNext,
  go,
  className,
  buttonClass = 'secondary outline',
  live = true,
  testId,
}: {
  label: string;
  page: number;
  pageText: string;
  hasPrev: boolean;
  hasNext: boolean;
  go(page: number): void;
  className: string;
  buttonClass?: string;
  live?: boolean;
  testId?: string;
}) {
  const t = useT();
  return (
    <nav aria-label={label} className={className}>
      <button type="button" className={buttonClass} disabled={!hasPrev} onClick={() => go(page - 1)}>
        {t('common.prev')}
      </button>
      <span aria-live={live ? 'polite' : undefined} data-testid={testId}>
        {pageText}
      </span>
      <button type="button" className={buttonClass} disabled={!hasNext} onClick={() => go(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}
