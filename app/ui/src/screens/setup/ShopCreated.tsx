import { useId, useState } from 'react';
import { useT } from '../../i18n';
import { navigate } from '../../router';
import { messages } from './i18n';
import type { ShopCreated } from './types';

/**
 * The shop is made: what was created, and the registers' API client, whose secret the server
 * keeps only hashed and shows this once. The way on to the login opens once the staff member
 * says the secret is saved; the login then asks for the staff member's password.
 */
export function ShopCreatedView({ shop }: { shop: ShopCreated }) {
  const t = useT(messages);
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);

  const copy = async (what: string, value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(t('made.copied', { what }));
    } catch {
      setCopied(t('made.copyFailed'));
    }
  };

  const login = () => navigate(`/login?staff=${encodeURIComponent(shop.staffCode)}`, { replace: true });

  return (
    <section aria-labelledby="made-title">
      <h3 id="made-title">{t('made.title', { contract: shop.contract.name })}</h3>
      <div className="setup-grid setup-made">
        <dl className="setup-summary" aria-label={t('made.summary')}>
          <dt>{t('shop.contractId')}</dt>
          <dd>{shop.contract.contractId}</dd>
          <dt>{t('shop.plan')}</dt>
          <dd>{t(`plan.${shop.contract.plan}`)}</dd>
          <dt>{t('made.store')}</dt>
          <dd>{shop.storeId}</dd>
          <dt>{t('made.staff')}</dt>
          <dd>{shop.staffCode}</dd>
          <dt>{t('made.terminal')}</dt>
          <dd>{shop.terminalId}</dd>
        </dl>
        <section aria-labelledby="made-client" className="setup-client">
          <h4 id="made-client">{t('made.client')}</h4>
          <p>{t('made.clientText')}</p>
          <CopyField label={t('made.clientId')} value={shop.client.clientId} onCopy={copy} />
          <CopyField label={t('made.clientSecret')} value={shop.client.clientSecret} onCopy={copy} />
          <p>
            <small>
              {t('made.tokenPath')}: <code>{shop.tokenPath}</code> · {t('made.basePath')}: <code>{shop.basePath}</code>
              <br />
              {t('made.pathsHint')}
            </small>
          </p>
          <p role="status" aria-live="polite" className="setup-copied">
            {copied}
          </p>
        </section>
      </div>
      <label className="setup-check">
        <input type="checkbox" name="saved" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        {t('made.saved')}
      </label>
      <button type="button" disabled={!saved} onClick={login}>
        {t('made.toLogin')}
      </button>
    </section>
  );
}

/** A read-only value with its copy button; focusing the value selects it for Ctrl+C where the clipboard is closed. */
function CopyField({ label, value, onCopy }: { label: string; value: string; onCopy: (what: string, value: string) => void }) {
  const t = useT(messages);
  const id = useId();
  return (
    <div className="setup-copy">
      <label htmlFor={id}>{label}</label>
      <div role="group">
        <input id={id} readOnly value={value} onFocus={(e) => e.target.select()} spellCheck={false} />
        <button type="button" className="secondary" onClick={() => onCopy(label, value)} aria-label={t('made.copyOf', { what: label })}>
          {t('made.copy')}
        </button>
      </div>
    </div>
  );
}
