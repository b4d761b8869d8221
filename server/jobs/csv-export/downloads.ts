import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import type { AppDeps } from '../../deps.js';
import type { Sqlite } from '../../db/open.js';
import { DATA_DIR_MODE } from '../../db/open.js';
import { TransactionExportRepo } from '../../sales/exports/repo.js';

/**
 * Where export files live and how their download URLs are made and checked (issue 13 item 4).
 * A URL is `<public base>/downloads/<file>?expires=<epoch s>&signature=<base64url>`, the signature
 * an HMAC-SHA256 over the path and the expiry with the installation's key (migration 0028): it is
 * the only credential, so the receiver of a notice can fetch the file without a token.
 */
export const DOWNLOAD_PREFIX = '/downloads';

/** The export files: `exports/` beside the database file (in the data dir), 0700. */
export const exportDirOf = (db: Sqlite): string => join(dirname(db.name), 'exports');

export function ensureExportDir(db: Sqlite): string {
  const dir = exportDirOf(db);
  mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  return dir;
}

export const exportFileName = (exportId: string) => `transaction-details-${exportId}.csv.gz`;

const signature = (key: Buffer, path: string, expires: number) => createHmac('sha256', key).update(`${path}\n${expires}`).digest('base64url');

/** The absolute, signed URL of an export file, valid until `expiresAt` (epoch ms). */
export function signedDownloadUrl(base: string, key: Buffer, fileName: string, expiresAt: number): string {
  const path = `${DOWNLOAD_PREFIX}/${fileName}`;
  const expires = Math.floor(expiresAt / 1000);
  return `${base}${path}?expires=${expires}&signature=${signature(key, path, expires)}`;
}

export type Verdict = 'ok' | 'bad-signature' | 'expired';

/** Checks a download request: the signature first (a changed expiry is a bad signature), then the time. */
export function checkDownload(key: Buffer, fileName: string, expires: string | undefined, sig: string | undefined, now: number): Verdict {
  if (!expires || !/^\d{1,12}$/.test(expires) || !sig) return 'bad-signature';
  const expected = Buffer.from(signature(key, `${DOWNLOAD_PREFIX}/${fileName}`, Number(expires)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature';
  return Number(expires) * 1000 < now ? 'expired' : 'ok';
}

const ANY = new Set(['0.0.0.0', '::']);
const hostOf = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** This PC's first LAN IPv4 address (not loopback, not link-local), if any. */
export function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) return a.address;
  }
  return undefined;
}

/**
 * The base of download URLs: the configured public URL (`serve --public-url`, POS_PUBLIC_URL)
 * when there is one; else where the server listens: a server on all interfaces (`--host 0.0.0.0`)
 * is reached at this PC's first LAN IPv4 address, one on a given address at that address (a
 * server on 127.0.0.1, the default, is only reachable from this PC, so its files are too).
 */
export function publicBaseUrl(configured: string | undefined, address: AddressInfo | string | null): string {
  if (configured) return configured.replace(/\/+$/, '');
  if (!address || typeof address === 'string') return 'http://127.0.0.1';
  const host = ANY.has(address.address) ? (lanAddress() ?? '127.0.0.1') : hostOf(address.address);
  return `http://${host}:${address.port}`;
}

/**
 * The clean-up's pass over export files (jobs/cleanup.ts): deletes the files whose download URL
 * has expired and marks their rows, deleting their chunks in the database in the same write.
 * Returns how many went. The file work happens outside any transaction; each row is marked after
 * its file is gone. With several central processes the clean-up runs in one of them: the others
 * remove their own copies of files it deleted (removeGoneFiles, from their export runners).
 */
export function deleteExpiredExportFiles(deps: Pick<AppDeps, 'db' | 'writer'>, now: number): number {
  const repo = new TransactionExportRepo(deps.db);
  const dir = exportDirOf(deps.db);
  let deleted = 0;
  for (const row of repo.expiredFiles(now)) {
    rmSync(join(dir, row.file_name!), { force: true });
    deps.writer.write(() => repo.markFileDeleted(row.export_id, now));
    deleted += 1;
  }
  removeGoneFiles(deps.db);
  return deleted;
}

const FILE_NAME = /^transaction-details-(\d+)\.csv\.gz$/;

/** Removes the finished files in this data dir whose export's file was deleted (by another process's clean-up). */
export function removeGoneFiles(db: Sqlite): void {
  const dir = exportDirOf(db);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const repo = new TransactionExportRepo(db);
  for (const name of names) {
    const id = FILE_NAME.exec(name)?.[1];
    if (id === undefined) continue;
    const row = repo.byExportId(id);
    if (row && row.file_deleted_at !== null) rmSync(join(dir, name), { force: true });
  }
}

/** Removes the partial files of exports that were interrupted (call when none is running). */
export function removePartialFiles(db: Sqlite): void {
  const dir = exportDirOf(db);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no export was ever made here
  }
  for (const name of names) if (name.endsWith('.part')) rmSync(join(dir, name), { force: true });
}
