import { createHash } from 'node:crypto';

/**
 * The one stylesheet of the service's pages, served at `GET /assets/app.css`. Plain CSS with generic
 * classes (`.card`, `.btn`, `.btn-primary`, `.btn-danger`, `.field`, `.error`, `.flash`, `.table`) so
 * later pages (dashboard, OAuth approval, billing) reuse it; readable on a phone without zooming.
 */
export const stylesheet = `:root {
  --bg: #f6f7f9;
  --surface: #ffffff;
  --text: #1d2330;
  --muted: #5b6475;
  --border: #d9dde5;
  --primary: #2f5bd3;
  --primary-dark: #2347a8;
  --danger: #c62f3b;
  --danger-dark: #a0222d;
  --success-bg: #e8f5ec;
  --success-text: #1d5e33;
  --error: #b3261e;
  --radius: 8px;
  --shadow: 0 1px 2px rgba(16, 24, 40, 0.06), 0 1px 3px rgba(16, 24, 40, 0.1);
  font-size: 16px;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  background: var(--bg);
  color: var(--text);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  line-height: 1.5;
}
a { color: var(--primary); }
a:hover { color: var(--primary-dark); }
h1, h2, h3 { line-height: 1.25; margin: 0 0 0.75rem; }
h1 { font-size: 1.6rem; }
h2 { font-size: 1.3rem; }
p { margin: 0 0 1rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { overflow-x: auto; padding: 0.75rem; background: #f0f2f5; border-radius: var(--radius); }
.container { width: 100%; max-width: 960px; margin: 0 auto; padding: 0 1rem; }
.narrow { max-width: 440px; margin-left: auto; margin-right: auto; }
.muted { color: var(--muted); }
.inline { display: inline; }
.stack > * + * { margin-top: 1rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 1rem; }

.site-header { background: var(--surface); border-bottom: 1px solid var(--border); }
.site-header .container { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem; min-height: 3.5rem; }
.brand { font-weight: 700; font-size: 1.1rem; color: var(--text); text-decoration: none; }
.nav { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; }
.nav a { text-decoration: none; }
main.container { flex: 1; padding-top: 2rem; padding-bottom: 2rem; }
.site-footer { border-top: 1px solid var(--border); color: var(--muted); font-size: 0.875rem; }
.site-footer .container { padding-top: 1rem; padding-bottom: 1rem; }

.card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  box-shadow: var(--shadow);
  padding: 1.5rem;
  margin-bottom: 1.5rem;
}
.card > :last-child { margin-bottom: 0; }

.field { margin-bottom: 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.field input, .field select, .field textarea {
  display: block;
  width: 100%;
  padding: 0.6rem 0.75rem;
  font: inherit;
  color: inherit;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
}
.field input:focus, .field select:focus, .field textarea:focus {
  outline: 2px solid var(--primary);
  outline-offset: 1px;
  border-color: var(--primary);
}
.field input[aria-invalid="true"] { border-color: var(--error); }
.field .hint { color: var(--muted); font-size: 0.875rem; margin: 0.25rem 0 0; }
.field.checkbox label { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; }
.field.checkbox input { width: auto; }
.error { color: var(--error); font-size: 0.9rem; margin: 0.25rem 0 0; }

.btn {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.4rem;
  min-height: 2.5rem;
  padding: 0.5rem 1rem;
  font: inherit;
  font-weight: 600;
  color: var(--text);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  text-decoration: none;
  cursor: pointer;
}
.btn:hover { background: #eef0f4; color: var(--text); }
.btn:focus-visible { outline: 2px solid var(--primary); outline-offset: 2px; }
.btn-primary { background: var(--primary); border-color: var(--primary); color: #fff; }
.btn-primary:hover { background: var(--primary-dark); border-color: var(--primary-dark); color: #fff; }
.btn-danger { background: var(--danger); border-color: var(--danger); color: #fff; }
.btn-danger:hover { background: var(--danger-dark); border-color: var(--danger-dark); color: #fff; }
.btn-link { background: none; border: none; color: var(--primary); padding: 0; min-height: auto; font-weight: 400; }
.btn-link:hover { background: none; color: var(--primary-dark); text-decoration: underline; }
.btn-block { width: 100%; }

.flash { padding: 0.75rem 1rem; margin-bottom: 1.5rem; border-radius: var(--radius); background: var(--success-bg); color: var(--success-text); border: 1px solid #b9dfc6; }
.flash.flash-error { background: #fdecea; color: var(--error); border-color: #f5c2bd; }

.table-wrap { overflow-x: auto; }
.table { width: 100%; border-collapse: collapse; background: var(--surface); }
.table th, .table td { text-align: left; padding: 0.6rem 0.75rem; border-bottom: 1px solid var(--border); vertical-align: top; }
.table th { font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); }

.badge { display: inline-block; padding: 0.1rem 0.5rem; border-radius: 999px; font-size: 0.8rem; background: #eef0f4; color: var(--muted); }
.error-page { text-align: center; padding: 4rem 1rem; }
.error-page h1 { font-size: 3rem; }

@media (max-width: 600px) {
  :root { font-size: 15px; }
  main.container { padding-top: 1.25rem; }
  .card { padding: 1rem; }
  .table th, .table td { padding: 0.5rem; }
}
`;

/** Changes whenever the stylesheet does, so pages can link it with a far-future cache lifetime. */
export const stylesheetVersion = createHash('sha256').update(stylesheet).digest('hex').slice(0, 12);

/** The URL pages link to. */
export const stylesheetUrl = `/assets/app.css?v=${stylesheetVersion}`;
