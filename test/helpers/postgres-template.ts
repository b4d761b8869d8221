/**
 * A migrated database in one step: the run's cluster keeps one database with every migration
 * applied, marked as a template, and each caller gets a copy (`CREATE DATABASE ... TEMPLATE`),
 * which takes a fraction of migrating a new database. Tests that build the app on PostgreSQL
 * start from here; tests of the migrations themselves use `createDatabase()` and migrate.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePostgres } from '../../server/db/pg/migrate.js';
import type { PgCluster } from './postgres.js';

const TEMPLATE = 'pos_migrated';
/** Serialises making the template across the run's worker processes. */
const TEMPLATE_LOCK_KEY = 7_202_624;

const ready = new WeakMap<PgCluster, Promise<void>>();

async function makeTemplate(cluster: PgCluster): Promise<void> {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    const made = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [TEMPLATE]);
    if (made.rowCount) return;
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    const pool = new pg.Pool({ connectionString: cluster.url(TEMPLATE), max: 1 });
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    await admin.query(`ALTER DATABASE ${TEMPLATE} IS_TEMPLATE true`);
  } finally {
    await admin.end();
  }
}

/** A new database with every migration applied; its URL. */
export async function createMigratedDatabase(cluster: PgCluster): Promise<string> {
  let template = ready.get(cluster);
  if (!template) {
    template = makeTemplate(cluster);
    ready.set(cluster, template);
    template.catch(() => ready.delete(cluster));
  }
  await template;
  const name = `m_${process.pid}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  return cluster.url(name);
}
