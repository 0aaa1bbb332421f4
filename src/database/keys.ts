import type { Kysely } from 'kysely';
import { InjectionKey } from '../core/container.js';
import type { Engine } from './connection.js';
import type { Database } from './types.js';

/** Container keys for the application's database connection. */
export const DbKey = new InjectionKey<Kysely<Database>>('Database');
export const EngineKey = new InjectionKey<Engine>('DatabaseEngine');
