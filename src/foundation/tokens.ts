import type { Kysely } from 'kysely';
import type { Engine } from '../database/connection.js';
import type { Database } from '../database/types.js';
import type { Clock } from './clock.js';
import type { TollgateConfig } from './config.js';
import { InjectionToken } from './container.js';
import type { EventDispatcher } from './events.js';
import type { Logger } from './logger.js';

/** Container keys for the application's shared services. */
export const ConfigToken = new InjectionToken<TollgateConfig>('Config');
export const DbToken = new InjectionToken<Kysely<Database>>('Database');
export const EngineToken = new InjectionToken<Engine>('DatabaseEngine');
export const ClockToken = new InjectionToken<Clock>('Clock');
export const LoggerToken = new InjectionToken<Logger>('Logger');
export const EventsToken = new InjectionToken<EventDispatcher>('Events');
export const AppKeyToken = new InjectionToken<Uint8Array>('AppKey');
