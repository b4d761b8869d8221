/**
 * Reading SQL text as the migration translator needs it: a script split into statements, comments
 * dropped, and edits applied to code only, never inside a string literal or a quoted name.
 *
 * Quoting understood: '...' (with ''), "..." (with ""), $tag$...$tag$ (PostgreSQL bodies), -- and
 * /* *\/ comments. A `;` inside BEGIN ... END (a SQLite trigger body) or CASE ... END does not end
 * the statement.
 */

type Piece = { code: true; text: string } | { code: false; text: string };

/** The script cut into code and quoted pieces, comments removed (a space keeps words apart). */
export function pieces(sql: string): Piece[] {
  const out: Piece[] = [];
  let code = '';
  let i = 0;
  const flush = () => {
    if (code) out.push({ code: true, text: code });
    code = '';
  };
  while (i < sql.length) {
    const c = sql[i]!;
    const rest = sql.slice(i, i + 2);
    if (rest === '--') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      code += ' ';
    } else if (rest === '/*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      code += ' ';
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(c, j);
        if (k < 0) throw new Error(`unterminated ${c} quote in SQL near: ${sql.slice(i, i + 40)}`);
        if (sql[k + 1] === c) j = k + 2;
        else {
          j = k + 1;
          break;
        }
      }
      flush();
      out.push({ code: false, text: sql.slice(i, j) });
      i = j;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      if (end < 0) throw new Error(`unterminated ${tag} body in SQL`);
      flush();
      out.push({ code: false, text: sql.slice(i, end + tag.length) });
      i = end + tag.length;
    } else {
      code += c;
      i++;
    }
  }
  flush();
  return out;
}

/** The statements of a script, comments removed, without their `;`, empty ones dropped. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let depth = 0;
  for (const piece of pieces(sql)) {
    if (!piece.code) {
      current += piece.text;
      continue;
    }
    // Words and semicolons in order, so BEGIN/CASE ... END nesting is followed.
    for (const part of piece.text.split(/(;|\b(?:BEGIN|CASE|END)\b)/i)) {
      const word = part.toUpperCase();
      if (word === 'BEGIN' || word === 'CASE') depth++;
      else if (word === 'END') depth = Math.max(0, depth - 1);
      if (part === ';' && depth === 0) {
        if (current.trim()) statements.push(current.trim());
        current = '';
      } else current += part;
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

/** The statement with `edit` applied to its code only (quoted text and names left as written). */
export function editCode(statement: string, edit: (code: string) => string): string {
  return pieces(statement)
    .map((p) => (p.code ? edit(p.text) : p.text))
    .join('');
}

/** The statement's code with every quoted piece blanked: for matching keywords safely. */
export const codeOnly = (statement: string) =>
  pieces(statement)
    .map((p) => (p.code ? p.text : "''"))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

/** Whether the statement says RETURNING (a word match: enough for our SQL, where no literal or name holds the word). */
export const hasReturning = (sql: string): boolean => /\breturning\b/i.test(sql);
