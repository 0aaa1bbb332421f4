import type { Context } from 'hono';
import { renderPage } from '../../views/render.js';

/** A stand-in `/dashboard` until the application declares its own (see `AuthOptions.dashboardPlaceholder`). */
export class DashboardPlaceholderController {
  show(c: Context): Promise<Response> {
    const user = c.get('user');
    return renderPage(
      c,
      { title: 'Dashboard' },
      <div class="card">
        <h1>Dashboard</h1>
        <p>
          You are logged in as <strong>{user?.name}</strong> ({user?.email}).
        </p>
      </div>,
    );
  }
}
