export { AppEncryptionKey, loadAppKey } from './app-key.js';
export type { ApplicationOptions, ServiceProvider } from './application.js';
export { Application } from './application.js';
export type { RunningServer } from './server.js';
export { closeOnSignals, listen } from './server.js';
