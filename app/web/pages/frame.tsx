import type { Child, FC } from 'hono/jsx';

const TABS = [
  ['overview', '/dashboard', 'Overview'],
  ['clients', '/dashboard/clients', 'OAuth clients'],
  ['tokens', '/dashboard/tokens', 'API tokens'],
  ['usage', '/dashboard/usage', 'Usage'],
  ['billing', '/dashboard/billing', 'Billing'],
  ['organizations', '/organizations', 'Organizations'],
  ['account', '/account', 'Account'],
] as const;

export type DashboardTab = (typeof TABS)[number][0];

/** The dashboard's tab bar, its title and the script bundle; every dashboard page sits in it. */
export const DashboardFrame: FC<{
  current: DashboardTab;
  title: string;
  script?: string;
  children?: Child;
}> = ({ current, title, script, children }) => (
  <>
    <h1>{title}</h1>
    <nav class="tabs" aria-label="Dashboard">
      {TABS.map(([id, href, label]) => (
        <a href={href} aria-current={id === current ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
    {children}
    {script ? <script type="module" src={script} /> : null}
  </>
);

/** A date as the pages show it: "Jan 15, 2026". */
export function displayDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
