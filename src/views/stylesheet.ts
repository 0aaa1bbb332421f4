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
.inline-rename { display: flex; gap: 0.5rem; margin: 0.5rem 0; }
.inline-rename input {
  padding: 0.4rem 0.6rem;
  font: inherit;
  color: inherit;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
}
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

meter { display: block; width: 100%; height: 0.9rem; margin: 0.5rem 0; }
.badge { display: inline-block; padding: 0.1rem 0.5rem; border-radius: 999px; font-size: 0.8rem; background: #eef0f4; color: var(--muted); }
.error-page { text-align: center; padding: 4rem 1rem; }
.error-page h1 { font-size: 3rem; }

.hidden, [hidden] { display: none !important; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); }
.grid-2 { grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); }
.nowrap { white-space: nowrap; }
.table .actions { flex-wrap: nowrap; margin: 0; }
.row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; justify-content: space-between; }
.row > h2, .row > h3 { margin: 0; }
.card h2 { font-size: 1.15rem; }
.small { font-size: 0.875rem; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85rem; word-break: break-all; }
.badge-success { background: var(--success-bg); color: var(--success-text); }
.badge-warning { background: #fff4e0; color: #8a5300; }
.badge-danger { background: #fdecea; color: var(--error); }

.hero { padding: 2.5rem 0 1.5rem; }
.hero h1 { font-size: 2.1rem; max-width: 34rem; }
.hero p { font-size: 1.1rem; color: var(--muted); max-width: 38rem; }
.feature h3 { font-size: 1.05rem; margin-bottom: 0.4rem; }
.feature p { color: var(--muted); margin: 0; }

.tabs { display: flex; gap: 0.25rem; overflow-x: auto; margin: 0 0 1.5rem; border-bottom: 1px solid var(--border); }
.tabs a { padding: 0.6rem 0.9rem; text-decoration: none; color: var(--muted); border-bottom: 2px solid transparent; white-space: nowrap; font-weight: 600; }
.tabs a[aria-current="page"] { color: var(--primary); border-bottom-color: var(--primary); }

.secret { background: #fff8e6; border: 1px solid #f0d48a; border-radius: var(--radius); padding: 0.75rem 1rem; margin: 1rem 0; }
.secret .value { display: grid; grid-template-columns: 1fr auto; gap: 0.25rem 0.5rem; align-items: center; margin-top: 0.6rem; }
.secret .value > span { grid-column: 1 / -1; font-weight: 600; }
.secret code { min-width: 0; max-height: 6.5rem; overflow-y: auto; background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.4rem 0.5rem; word-break: break-all; }
.checks { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.checks label { display: flex; flex-wrap: wrap; gap: 0 0.4rem; align-items: baseline; font-weight: 400; }
.checks code { white-space: nowrap; }
.checks input { width: auto; }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); padding: 0.75rem 1rem; margin: 0 0 1rem; }
legend { font-weight: 600; padding: 0 0.25rem; }

.plans { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); margin-bottom: 1rem; }
.plan { position: relative; display: block; border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem; cursor: pointer; background: var(--surface); }
.plan:has(input:checked) { border-color: var(--primary); box-shadow: 0 0 0 1px var(--primary); }
.plan input { position: absolute; top: 1rem; right: 1rem; }
.plan .name { font-weight: 700; display: block; padding-right: 1.5rem; }
.plan .price { font-size: 1.4rem; font-weight: 700; display: block; margin: 0.25rem 0; }
.plan .desc { display: block; }
.plan .badge { margin-top: 0.5rem; }
.plan .price small { font-size: 0.9rem; font-weight: 400; color: var(--muted); }
.test-cards { display: grid; gap: 0.5rem; }
.test-cards label { display: flex; gap: 0.6rem; align-items: baseline; border: 1px solid var(--border); border-radius: var(--radius); padding: 0.5rem 0.75rem; font-weight: 400; cursor: pointer; }
.test-cards label:has(input:checked) { border-color: var(--primary); background: #f3f6fe; }
.test-cards input { width: auto; }
.select { padding: 0.45rem 0.6rem; font: inherit; color: inherit; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); min-height: 2.5rem; max-width: 100%; }
.card-element { padding: 0.7rem 0.75rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0 0 1rem; }
.dl dt { color: var(--muted); }
.dl dd { margin: 0; }

.console { background: #10151f; color: #d7e1f5; border-radius: var(--radius); padding: 0.75rem; min-height: 4rem; max-height: 20rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
.approval .client-name { font-size: 1.1rem; }
.approval .client-logo { display: block; max-width: 64px; max-height: 64px; object-fit: contain; margin-bottom: 0.75rem; }
.approval .client-pages { font-size: 0.9rem; }
.approval .scopes { padding-left: 1.25rem; margin: 0 0 1rem; }
.approval .scopes li { margin: 0.25rem 0; }
.approval .scopes code { white-space: nowrap; }
.approval .actions form { flex: 1; }
.approval .actions .btn { width: 100%; }
.device-entry input[name="user_code"] { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 1.25rem; letter-spacing: 0.12em; text-transform: uppercase; }
.approval .user-code { font-size: 1.05rem; font-weight: 600; letter-spacing: 0.08em; white-space: nowrap; }
.doc h2 { margin-top: 1.75rem; }
.doc h3 { margin-top: 1.25rem; font-size: 1.05rem; }
.doc ul, .doc ol { padding-left: 1.25rem; margin: 0 0 1rem; }
.doc li { margin: 0.2rem 0; }
.doc .table-wrap { margin-bottom: 1rem; }
.doc .table td, .doc .table th { font-size: 0.9rem; }
.doc p code, .doc li code, .doc td code { background: #f0f2f5; padding: 0.05rem 0.3rem; border-radius: 4px; }
/* Long identifiers and URLs in running text break anywhere rather than widen a phone's page. */
.doc :not(pre) > code { overflow-wrap: anywhere; }

/* Spacing helpers: pages use classes, not style attributes (the CSP has no 'unsafe-inline'). */
.m-0 { margin: 0; }
.mt-0 { margin-top: 0; }
.mt-sm { margin-top: 0.5rem; }
.mt-md { margin-top: 1rem; }
.mt-lg { margin-top: 1.5rem; }
.mb-xs { margin-bottom: 0.25rem; }
.mb-sm { margin-bottom: 0.5rem; }
.mb-md { margin-bottom: 1rem; }
.mb-lg { margin-bottom: 1.5rem; }
.mr-xs { margin-right: 0.25rem; }
.strong { font-weight: 600; }

@media (max-width: 600px) {
  :root { font-size: 15px; }
  main.container { padding-top: 1.25rem; }
  .card { padding: 1rem; }
  .table th, .table td { padding: 0.5rem; }
  .hero { padding: 1rem 0 0.5rem; }
  .hero h1 { font-size: 1.6rem; }
  .tabs a { padding: 0.5rem 0.4rem; font-size: 0.875rem; }
  .table.stack-sm thead { display: none; }
  .table.stack-sm tr { display: block; border-bottom: 1px solid var(--border); padding: 0.5rem 0; }
  .table.stack-sm td { display: block; border: none; padding: 0.15rem 0.5rem; }
}
`;

/** Changes whenever the stylesheet does, so pages can link it with a far-future cache lifetime. */
export const stylesheetVersion = createHash('sha256').update(stylesheet).digest('hex').slice(0, 12);

/** The URL pages link to. */
export const stylesheetUrl = `/assets/app.css?v=${stylesheetVersion}`;
