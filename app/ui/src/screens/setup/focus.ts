import type { ProblemView } from '../../api/problem';

/** Moves focus to the first field the API named (in the form's order), where its message is read out with it. */
export function focusFirstError(fields: readonly string[], problem: ProblemView): void {
  const first = fields.find((f) => problem.fields[f]);
  if (!first) return;
  // After React has rendered the message under it.
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
}
