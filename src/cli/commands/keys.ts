import type { Command } from 'commander';
import { installKeys } from '../../oauth/index.js';
import { keyPaths } from '../../oauth/keys/key-files.js';
import { pruneKeys, rotateKeys } from '../../oauth/keys/rotation.js';
import { OAuthStoreKey } from '../../oauth/stores/contracts.js';
import { CliError, withApplication } from '../context.js';
import { prepared } from './oauth.js';

function rsaBits(length: string): number {
  const bits = Number(length);
  if (![2048, 3072, 4096].includes(bits)) throw new CliError('--length must be 2048, 3072 or 4096.');
  return bits;
}

const environmentKeys =
  'OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY are set: keys from the environment are one key, which this command does not change. Rotate with key files (unset them, `tollgate keys:rotate`), or replace the variables (tokens signed with the old key then stop verifying).';

export function register(program: Command): void {
  program
    .command('keys')
    .description('Regenerate the OAuth signing keys only. Tokens signed with the old key stop verifying.')
    .option('--force', 'accepted for Passport compatibility: keys are always regenerated')
    .option('--length <bits>', 'RSA modulus length for RS256', '2048')
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean; length: string }) =>
      withApplication(async (app) => {
        const { config } = app;
        const bits = rsaBits(options.length);
        installKeys(config.storagePath, config.oauth.signingAlgorithm, { force: true, rsaBits: bits });
        const paths = keyPaths(config.storagePath);
        if (options.json) {
          console.log(JSON.stringify({ algorithm: config.oauth.signingAlgorithm, ...paths }));
          return;
        }
        console.log(
          `Encryption keys generated (${config.oauth.signingAlgorithm}): ${paths.privateKey}, ${paths.publicKey}`,
        );
        if (config.oauth.privateKey)
          console.log('Note: OAUTH_PRIVATE_KEY is set and takes precedence over these files.');
      }),
    );

  program
    .command('keys:rotate')
    .description(
      'Add a new signing key and make it current; the old key keeps verifying the tokens it signed until they expire.',
    )
    .option('--length <bits>', 'RSA modulus length for RS256', '2048')
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean; length: string }) =>
      withApplication(async (app) => {
        const { config } = app;
        if (config.oauth.privateKey && config.oauth.publicKey) throw new CliError(environmentKeys);
        const algorithm = config.oauth.signingAlgorithm;
        const result = await rotateKeys(config.storagePath, algorithm, {
          now: app.clock.now(),
          rsaBits: rsaBits(options.length),
        });
        if (options.json) {
          console.log(JSON.stringify({ algorithm, kid: result.kid, retired: result.retired.kid }));
          return;
        }
        console.log(`New signing key ${result.kid} (${algorithm}) is current.`);
        console.log(
          `The previous key ${result.retired.kid} stays in the JWKS and verifies the tokens it signed until they expire; \`tollgate keys:prune\` drops it once none is live.`,
        );
        console.log('Running servers sign with the new key within 5 seconds.');
      }),
    );

  program
    .command('keys:prune')
    .description('Drop the previous signing keys that no live (unexpired, unrevoked) access token uses.')
    .option('--grace <seconds>', 'keep keys retired less than this long ago', '300')
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean; grace: string }) =>
      withApplication(async (application) => {
        const graceSeconds = Number(options.grace);
        if (!Number.isFinite(graceSeconds) || graceSeconds < 0)
          throw new CliError('--grace must be a number of seconds, at least 0.');
        const app = await prepared(application);
        const { config } = app;
        if (config.oauth.privateKey && config.oauth.publicKey) throw new CliError(environmentKeys);
        const now = app.clock.now();
        const kidsInUse = await app.container.make(OAuthStoreKey).accessTokens.kidsInUse(now.toISOString());
        const { dropped, kept } = pruneKeys(config.storagePath, { kidsInUse, now, graceSeconds });
        if (options.json) {
          console.log(JSON.stringify({ dropped: dropped.map((k) => k.kid), kept: kept.map((k) => k.kid) }));
          return;
        }
        console.log(
          dropped.length
            ? `Dropped ${dropped.length} previous signing key(s): ${dropped.map((k) => k.kid).join(', ')}.`
            : 'No previous signing key can be dropped yet.',
        );
        if (kept.length)
          console.log(
            `Kept ${kept.length} still in use or retired recently: ${kept.map((k) => k.kid).join(', ')}.`,
          );
      }),
    );
}
