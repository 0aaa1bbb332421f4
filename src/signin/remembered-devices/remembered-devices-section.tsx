import type { FC } from 'hono/jsx';
import { deviceName } from '../../accounts/index.js';
import { CsrfField } from '../../views/components.js';
import type { RememberedDevice } from './remembered-devices.js';

/** The account page's "Remembered devices" card: browsers that skip the second factor, each revocable. */
export const RememberedDevicesSection: FC<{ devices: RememberedDevice[]; csrfToken: string }> = ({
  devices,
  csrfToken,
}) => (
  <section class="card" id="remembered-devices">
    <h2>Remembered devices</h2>
    <p>These browsers sign in with your password alone, without the second step, until the date shown.</p>
    {devices.length > 0 ? (
      <table class="table">
        <thead>
          <tr>
            <th>Device</th>
            <th>Address</th>
            <th>Last used</th>
            <th>Until</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((device) => (
            <tr>
              <td>{deviceName(device.userAgent)}</td>
              <td>{device.ipAddress ?? 'unknown'}</td>
              <td>{device.lastUsedAt ? day(device.lastUsedAt) : 'Not yet'}</td>
              <td>{day(device.expiresAt)}</td>
              <td>
                <form method="post" action={`/account/remembered-devices/${device.id}/delete`}>
                  <CsrfField token={csrfToken} />
                  <button type="submit" class="btn" aria-label={`Forget ${deviceName(device.userAgent)}`}>
                    Forget
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : (
      <p class="muted">No remembered devices.</p>
    )}
  </section>
);

function day(iso: string): string {
  return iso.slice(0, 10);
}
