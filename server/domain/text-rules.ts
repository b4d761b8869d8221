/**
 * Character rules for names typed at a reservation desk (spec 4.13): reservation person name,
 * its kana reading and the staff name. Register printers and the ordering side's fonts cannot
 * show characters outside the Basic Multilingual Plane, and a name nobody can see (only spaces
 * or zero-width characters) makes a reservation impossible to find on the floor.
 */

/** Characters that show nothing on their own. */
const INVISIBLE =
  /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}\u2800\u3164\uFFA0\u115F\u1160]*$/u;

/** True when the text has a character that takes 4 bytes in UTF-8 (a code point above U+FFFF, e.g. emoji). */
export function hasFourByteChar(text: string): boolean {
  for (const ch of text) if (ch.codePointAt(0)! > 0xffff) return true;
  return false;
}

/** True when the text is made only of invisible characters (whitespace incl. U+3000, zero-width, controls, variation selectors…). */
export function isInvisibleOnly(text: string): boolean {
  return INVISIBLE.test(text);
}

export const FOUR_BYTE_MESSAGE = 'must not contain 4-byte UTF-8 characters such as emoji';
export const INVISIBLE_MESSAGE = 'must not be made only of invisible characters';

/** The message for a name that breaks a rule, or null when it is acceptable. */
export function nameCharacterProblem(text: string): string | null {
  if (hasFourByteChar(text)) return FOUR_BYTE_MESSAGE;
  if (isInvisibleOnly(text)) return INVISIBLE_MESSAGE;
  return null;
}
