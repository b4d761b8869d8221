import type { ProblemView } from '../api/problem';
import { useT } from '../i18n';

/**
 * The part of an API problem no field on the form shows: its general messages, and messages for
 * fields the form does not have (listed as `field: message`). `shown` names the form's fields.
 */
export function FormProblem({ problem, shown = [] }: { problem: ProblemView | null | undefined; shown?: readonly string[] }) {
  const t = useT();
  if (!problem) return null;
  const others = Object.entries(problem.fields).filter(([field]) => !shown.includes(field));
  const messages = problem.network ? [t('error.network')] : problem.messages;
  if (!messages.length && !others.length) return null;
  return (
    <div role="alert" className="form-problem">
      {messages.map((m, i) => (
        <p key={`m${i}`}>{m}</p>
      ))}
      {others.map(([field, message]) => (
        <p key={field}>{t('error.field', { field, message })}</p>
      ))}
    </div>
  );
}
