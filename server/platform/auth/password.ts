import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Staff passwords are chosen by people, so unlike client secrets they are stretched with a
 * slow, salted KDF (scrypt) before storing. Stored form: `scrypt$N$r$p$salt$hash` (base64url),
 * so the cost can be raised later without breaking existing hashes.
 */
const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Why a password cannot be set, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  return null;
}

const encode = (salt: Buffer, hash: Buffer, cost: { N: number; r: number; p: number }) =>
  `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;

/** Synchronous: for the CLI and the demo seed, which run inside one SQLite transaction. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  return encode(salt, scryptSync(password.normalize('NFC'), salt, KEY_LENGTH, { ...COST, maxmem: MAX_MEM }), COST);
}

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Off the event loop: for a route (the setup screen's first staff member), whose server keeps serving meanwhile. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encode(salt, await scryptAsync(password.normalize('NFC'), salt, KEY_LENGTH, { ...COST, maxmem: MAX_MEM }), COST);
}

// Compared against when the user is unknown or has no password, so that answer takes as long
// as a wrong password and the endpoint does not reveal which usernames exist. Its hash is random
// bytes, since nothing can match it anyway (a null hash never matches): hashing at load freed
// scrypt's 16 MB block at every start, after which glibc keeps freed memory instead of returning
// it (its dynamic mmap threshold), some 15 MB more resident for the life of the server.
const DUMMY = encode(randomBytes(16), randomBytes(KEY_LENGTH), COST);

/** Constant-time check of a password against a stored hash; a null hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await scryptAsync(password.normalize('NFC'), salt, expected.length, { N, r, p, maxmem: MAX_MEM });
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
