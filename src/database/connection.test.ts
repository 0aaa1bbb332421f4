import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connection, connect } from './connection.js';

describe('SQLite connection (cached statements)', () => {
  let dir: string;
  let connection: Connection;
  afterEach(async () => {
    await connection.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = async () => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-connection-'));
    connection = connect(join(dir, 'db.sqlite'));
    await sql`create table t (id integer primary key, name text)`.execute(connection.db);
    return connection.db as never as import('kysely').Kysely<any>;
  };

  it('runs the same SQL again with new parameters, and sees a schema change', async () => {
    const db = await open();
    for (const name of ['a', 'b', 'c']) await db.insertInto('t').values({ name }).execute();
    const names = async () =>
      (await db.selectFrom('t').selectAll().orderBy('id').execute()).map((r) => r.name);
    expect(await names()).toEqual(['a', 'b', 'c']);
    expect((await db.selectFrom('t').selectAll().where('name', '=', 'b').execute()).length).toBe(1);
    expect((await db.selectFrom('t').selectAll().where('name', '=', 'z').execute()).length).toBe(0);
    await sql`alter table t add column extra text default 'x'`.execute(db);
    expect(await db.selectFrom('t').selectAll().orderBy('id').executeTakeFirst()).toEqual({
      id: 1,
      name: 'a',
      extra: 'x',
    });
  });
});
