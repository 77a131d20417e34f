import pg from 'pg';

export interface FreshDatabase {
  /** The new database's address, for DATABASE_URL of spawned processes. */
  url: string;
  /** Drops it, ending whatever connections are left (a killed process's are gone already). */
  drop(): Promise<void>;
}

/**
 * A database of its own on the server of `serverUrl` (TEST_DATABASE_URL), for tests that start whole
 * server processes: each of them migrates and uses the public schema, as in production.
 */
export async function createFreshDatabase(serverUrl: string): Promise<FreshDatabase> {
  const name = `lms_cluster_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
