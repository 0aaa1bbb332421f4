/** Tagged template for HTML without JSX: interpolated values are escaped (Hono's `html`). */
export { html, raw } from 'hono/html';
export { CsrfField, Field, type FieldProps } from './components.js';
export { Layout, type LayoutProps } from './layout.js';
export { type PageOptions, renderPage, shareAppName } from './render.js';
export { stylesheet, stylesheetUrl, stylesheetVersion } from './stylesheet.js';
export { StylesheetController } from './stylesheet-controller.js';
