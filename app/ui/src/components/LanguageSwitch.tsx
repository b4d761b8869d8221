import { LANGS, useLang, useT, type Lang } from '../i18n';

/** The language switch: a labelled <select>, usable by keyboard, shown on every page (login included). */
export function LanguageSwitch() {
  const t = useT();
  const { lang, setLang } = useLang();
  return (
    <label className="lang-switch">
      <span>{t('lang.label')}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} data-testid="lang">
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`lang.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
