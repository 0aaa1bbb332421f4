import type { Child, FC } from 'hono/jsx';
import type { DashboardScope } from '../dashboard-scope.js';

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

/** The tabs whose pages follow the organization switcher: their links keep the chosen scope. */
const SCOPED: readonly DashboardTab[] = ['clients', 'tokens'];

/**
 * The organization switcher of a scoped page: plain links (no script), one per scope, the current
 * one marked. Shown only to someone in an organization; the script reads `data-organization-scope`.
 */
const OrganizationSwitcher: FC<{ path: string; scope: DashboardScope }> = ({ path, scope }) =>
  scope.organizations.length === 0 ? null : (
    <nav class="tabs" aria-label="Organization" data-organization-scope={scope.organizationId ?? ''}>
      <a href={path} aria-current={scope.organizationId === undefined ? 'page' : undefined}>
        Personal
      </a>
      {scope.organizations.map(({ id, name }) => (
        <a
          href={`${path}?organization_id=${id}`}
          aria-current={scope.organizationId === id ? 'page' : undefined}
        >
          {name}
        </a>
      ))}
    </nav>
  );

/** The dashboard's tab bar, its title and the script bundle; every dashboard page sits in it. */
export const DashboardFrame: FC<{
  current: DashboardTab;
  title: string;
  script?: string;
  /** A page that follows the organization switcher (clients, tokens): whose credentials it shows. */
  scope?: DashboardScope;
  children?: Child;
}> = ({ current, title, script, scope, children }) => (
  <>
    <h1>{title}</h1>
    <nav class="tabs" aria-label="Dashboard">
      {TABS.map(([id, href, label]) => (
        <a
          href={scope && SCOPED.includes(id) ? `${href}${scope.query}` : href}
          aria-current={id === current ? 'page' : undefined}
        >
          {label}
        </a>
      ))}
    </nav>
    {scope ? <OrganizationSwitcher path={TABS.find(([id]) => id === current)![1]} scope={scope} /> : null}
    {children}
    {script ? <script type="module" src={script} /> : null}
  </>
);

/** A date as the pages show it: "Jan 15, 2026". */
export function displayDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
