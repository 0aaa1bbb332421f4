/**
 * `tollgate/views`: the page layout and form components the built-in pages use, for an
 * application's own pages (hono/jsx).
 */
/** Tagged template for HTML without JSX: interpolated values are escaped (Hono's `html`). */
export { html, raw } from 'hono/html';
export type { FieldProps } from './components.js';
export { CsrfField, Field } from './components.js';
export type { LayoutProps } from './layout.js';
export { Layout } from './layout.js';
export type { PageOptions } from './render.js';
export { renderPage } from './render.js';
