export { loadAppKey } from './app-key.js';
export { Application, type ApplicationOptions, type ServiceProvider } from './application.js';
export { type Clock, epochSeconds, SystemClock, TestClock } from './clock.js';
export {
  type BillingEdition,
  type CouponConfig,
  configFromEnv,
  configFromFile,
  type DeepPartial,
  defaults,
  defineConfig,
  loadConfig,
  type PlanConfig,
  type SigningAlgorithm,
  type TollgateConfig,
} from './config.js';
export { type Constructor, Container, type Injectable, InjectionToken, type Token } from './container.js';
export { ConfigurationError, HttpError, ValidationError } from './errors.js';
export { type EventClass, EventDispatcher, type Listener } from './events.js';
export { createLogger, type Logger, redactedPaths } from './logger.js';
export {
  AppKeyToken,
  ClockToken,
  ConfigToken,
  DbToken,
  EngineToken,
  EventsToken,
  LoggerToken,
} from './tokens.js';
