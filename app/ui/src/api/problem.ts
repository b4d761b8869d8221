/**
 * The server's errors are problem+json whose `detail` names the field:
 * `[categoryName] must not be empty; [details[0].salesPrice] must be 1 to 9 digits`.
 * These helpers split a detail into field → message, so a form shows each message next to the
 * field it names (components/Field.tsx) and the rest above the form (components/FormProblem.tsx).
 */
export interface ProblemView {
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  title: string;
  /** `categoryName` → `must not be empty`; array positions as the server writes them (`details[0].salesPrice`). */
  fields: Record<string, string>;
  /** Parts of the detail that name no field; `network` / `expired` for the app's own cases. */
  messages: string[];
  /** Set when the server could not be reached (fetch failed), so a screen can say so in its language. */
  network?: boolean;
}

// `[field] message` where field may hold `[0]` positions; entries are joined by "; ".
const ENTRY = /^\[((?:[^[\]]|\[\d+\])+)\]\s*(.*)$/s;

export function parseDetail(detail: string): Pick<ProblemView, 'fields' | 'messages'> {
  const fields: Record<string, string> = {};
  const messages: string[] = [];
  for (const part of detail.split(/;\s+(?=\[)/)) {
    const match = ENTRY.exec(part.trim());
    if (!match) {
      if (part.trim()) messages.push(part.trim());
      continue;
    }
    const [, field, message] = match as unknown as [string, string, string];
    // Two messages for one field: keep both.
    fields[field] = fields[field] ? `${fields[field]}; ${message}` : message;
  }
  return { fields, messages };
}

interface ProblemBody {
  title?: unknown;
  detail?: unknown;
  status?: unknown;
  error_description?: unknown;
}

/** A problem+json body (or anything an openapi-fetch `error` holds) as a view. */
export function problemView(body: unknown, status: number): ProblemView {
  const b = (body && typeof body === 'object' ? body : {}) as ProblemBody;
  const detail = typeof b.detail === 'string' ? b.detail : typeof body === 'string' ? body : '';
  const title = typeof b.title === 'string' ? b.title : `HTTP ${status}`;
  const { fields, messages } = parseDetail(detail);
  return { status: typeof b.status === 'number' ? b.status : status, title, fields, messages: detail || messages.length ? messages : [title] };
}

export const networkProblem = (error: unknown): ProblemView => ({
  status: 0,
  title: 'Network error',
  fields: {},
  messages: [error instanceof Error ? error.message : String(error)],
  network: true,
});

/** The message a form shows next to `field`, if the problem names it. */
export const fieldError = (problem: ProblemView | null | undefined, field: string): string | undefined => problem?.fields[field];
