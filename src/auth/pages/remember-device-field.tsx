import type { FC } from 'hono/jsx';
import { REMEMBER_DEVICE_FIELD } from '../second-factor.js';

/** The second step's "Remember this device for 30 days" box, when a device memory is set up. */
export const RememberDeviceField: FC<{ days: number | undefined }> = ({ days }) =>
  days ? (
    <div class="field checkbox">
      <label>
        <input type="checkbox" name={REMEMBER_DEVICE_FIELD} value="1" /> Remember this device for {days} days
      </label>
    </div>
  ) : null;
