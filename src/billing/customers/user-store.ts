import type { Container } from '../../core/container.js';
import { DbKey } from '../../database/keys.js';
import type { BillableStore } from '../billable-stores.js';
import { type User, Users } from '../billable-user.js';

/** The `user` billable store: users through auth's `Users`, customer ids looked up in `users`. */
export function userBillableStore(container: Container): BillableStore {
  const users = () => container.make(Users);
  return {
    find: (id) => users().find(id),
    update: (owner, values) => users().update(owner as User, values),
    async idOfCustomer(column, customerId) {
      const row = await container
        .make(DbKey)
        .selectFrom('users')
        .select('id')
        .where(column, '=', customerId)
        .executeTakeFirst();
      return row?.id;
    },
    async idsWithCustomer(column) {
      const rows = await container
        .make(DbKey)
        .selectFrom('users')
        .select('id')
        .where(column, 'is not', null)
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    },
  };
}
