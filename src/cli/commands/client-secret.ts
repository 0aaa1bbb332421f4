import type { Command } from 'commander';
import { Clients } from '../../oauth/clients/clients.js';
import { bootApiGuard, broadcastsSent } from '../../oauth/guard/register.js';
import { MAX_SECRET_GRACE_SECONDS } from '../../oauth/http/schemas.js';
import { CliError, withApplication } from '../context.js';
import { prepared } from './oauth.js';

export function register(program: Command): void {
  program
    .command('client:secret')
    .description('Rotate a confidential client’s secret: prints the new one (shown once).')
    .argument('<client-id>', 'the client whose secret to replace')
    .option('--grace <seconds>', 'how long the old secret keeps working (0: it stops now)', '0')
    .option('--json', 'print { client_id, secret, previous_secret_expires_at } as JSON')
    .action((clientId: string, options: { grace: string; json?: boolean }) =>
      withApplication(async (application) => {
        const grace = Number(options.grace);
        if (!Number.isInteger(grace) || grace < 0 || grace > MAX_SECRET_GRACE_SECONDS)
          throw new CliError(
            `--grace must be a whole number of seconds from 0 to ${MAX_SECRET_GRACE_SECONDS}.`,
          );
        const app = await prepared(application);
        // With Redis, the running instances hear of the rotation and refuse the old secret at
        // once, not for the rest of their 5-second cache.
        await bootApiGuard(app);
        const clients = app.container.make(Clients);
        const client = await clients.find(clientId);
        if (!client) throw new CliError(`No live client with the id ${clientId}.`);
        if (client.secretHash === null) throw new CliError('A public client has no secret to rotate.');
        const secret = await clients.rotateSecret(client, grace);
        if (secret === undefined)
          throw new CliError('The secret was changed meanwhile: run the command again.');
        const until = (await clients.find(clientId))?.previousSecret?.expiresAt ?? null;
        await broadcastsSent(app);
        if (options.json) {
          console.log(JSON.stringify({ client_id: clientId, secret, previous_secret_expires_at: until }));
          return;
        }
        console.log(`New client secret for ${client.name} (${clientId}):\n${secret}`);
        console.log(
          until ? `The old secret keeps working until ${until}.` : 'The old secret no longer works.',
        );
      }),
    );
}
