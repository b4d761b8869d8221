import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en } from './en';
import { ja, type CommonKey } from './ja';

export type Lang = 'ja' | 'en';
export const LANGS: readonly Lang[] = ['ja', 'en'];
const STORAGE_KEY = 'pos-ui.lang';

/** A screen's own labels: Japanese is the source of its keys, English must have each of them. */
export interface Messages<K extends string> {
  ja: Readonly<Record<K, string>>;
  en: Readonly<Record<K, string>>;
}

/**
 * Declares a screen's dictionary (screens/<name>/i18n.ts) so no screen edits the common files:
 * `export const messages = defineMessages({ 'today.title': '本日' }, { 'today.title': 'Today' })`.
 * The keys come from the Japanese object only (NoInfer), so a missing or extra English key is a type error.
 */
export function defineMessages<K extends string>(jaMessages: Record<K, string>, enMessages: NoInfer<Record<K, string>>): Messages<K> {
  return { ja: jaMessages, en: enMessages };
}

export type Vars = Record<string, string | number>;
/** Looks a key up in the screen's dictionary, then the common one; `{name}` placeholders are filled from vars. */
export type Translate<K extends string = never> = (key: K | CommonKey, vars?: Vars) => string;

const COMMON: Messages<CommonKey> = { ja, en };

interface LangState {
  lang: Lang;
  setLang(lang: Lang): void;
}

const LangContext = createContext<LangState>({ lang: 'ja', setLang: () => {} });

function storedLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved === 'en' ? 'en' : 'ja';
  } catch {
    return 'ja';
  }
}

/** Japanese by default; the choice is kept in localStorage and set on <html lang> for screen readers and fonts. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(storedLang);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const setLang = useCallback((next: Lang) => {
    setLangState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private mode: the choice lasts for the page only.
    }
  }, []);
  const value = useMemo(() => ({ lang, setLang }), [lang, setLang]);
  return <LangContext.Provider value={value}>{children}</LangContext.Provider>;
}

export const useLang = () => useContext(LangContext);

export function interpolate(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** `const t = useT(messages)` in a screen, `useT()` for the common keys only. */
export function useT<K extends string = never>(screen?: Messages<K>): Translate<K> {
  const { lang } = useLang();
  return useCallback(
    (key: K | CommonKey, vars?: Vars) => {
      const own = screen?.[lang] as Record<string, string> | undefined;
      const common = COMMON[lang] as Record<string, string>;
      return interpolate(own?.[key] ?? common[key] ?? key, vars);
    },
    [lang, screen],
  );
}
