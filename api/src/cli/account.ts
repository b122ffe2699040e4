import { loadConfig } from '../foundations/config.ts';
import { openDb, openFailureMessage } from '../db/open.ts';
import { conflictError, DomainError, invalidError, notFoundError } from '../foundations/errors.ts';
import { generatePassword } from '../identity/accounts/passwords.ts';
import { createAccount, resetPassword } from '../identity/accounts/queries.ts';
import { tr } from '../language/messages.ts';

// Staff logins of the embedded OpenID provider, made at the server's console: the office gets its
// first account without a demo seed, and a forgotten password is replaced without a database tool.
// No HTTP here: a refusal is a domain error, and its sentence is what the console prints.

const usage = `Usage:
  npm run account -- add <username> [--group backoffice|vendor] [--email <address>]
  npm run account -- password <username>

Uses the same database as npm start (DATABASE_URL or DATA_DIR). The password is printed once.`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

async function run(args: string[]): Promise<string> {
  const [command, username] = args;
  if (!command || !username || !['add', 'password'].includes(command)) throw invalidError(usage);
  const config = loadConfig();
  // Beside a running server on the embedded database, the lock refuses this with the server named.
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
    throw conflictError(openFailureMessage(error));
  });
  try {
    if (command === 'password') {
      const password = await resetPassword(db, username);
      if (!password) throw notFoundError(tr('There is no account "{username}".', { username }));
      return `New password for ${username}: ${password}\nTheir sessions have ended; they log in again with it.`;
    }
    const group = option(args, 'group') ?? 'backoffice';
    if (!['backoffice', 'vendor'].includes(group))
      throw invalidError(tr('The group must be backoffice or vendor, not "{group}".', { group }));
    const password = generatePassword();
    await createAccount(db, { username, email: option(args, 'email') ?? null, password, groups: [group] });
    return `Account ${username} (${group}) created. Password: ${password}\nHand it over in person; it is not shown again.`;
  } finally {
    await db.destroy();
  }
}

try {
  console.log(await run(process.argv.slice(2)));
} catch (error) {
  console.error(error instanceof DomainError ? error.message : String(error));
  process.exitCode = 1;
}
