import { Stub } from '../../components/Stub';
import { useT } from '../../i18n';
import type { ScreenProps } from '../../router';
import { messages } from './i18n';

/** Phase-1 placeholder: the heading only (issue 12 phase 2 builds the screen). */
export function SyncScreen(_props: ScreenProps) {
  const t = useT(messages);
  return <Stub title={t('sync.title')} />;
}
