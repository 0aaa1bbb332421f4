import type { Clock } from './clock.js';
import type { TollgateConfig } from './config.js';
import { InjectionKey } from './container.js';
import type { EventDispatcher } from './events.js';
import type { Logger } from './logger.js';

/** Container keys for the services every module shares. */
export const ConfigKey = new InjectionKey<TollgateConfig>('Config');
export const ClockKey = new InjectionKey<Clock>('Clock');
export const LoggerKey = new InjectionKey<Logger>('Logger');
export const EventsKey = new InjectionKey<EventDispatcher>('Events');
