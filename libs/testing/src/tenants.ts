import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { repoRoot } from './system.js';

export interface Tenant {
  readonly accountId: string;
  readonly site: { readonly id: number; readonly name: string };
  readonly user: { readonly id: string; readonly email: string };
  readonly appId: string;
  readonly token: { readonly id: string; readonly accessToken: string };
}

/** The built admin CLI's process entry (`npm run admin` runs it). */
export const AUTH_ADMIN_ENTRY = join(repoRoot, 'services/auth/dist/src/adapters/cli/admin.js');

export type AdminCli = (...args: string[]) => Promise<Record<string, unknown>>;

/** Auth's admin CLI (the built one) against auth's database; answers its JSON. */
export const adminCli =
  (authEnv: { DATABASE_URL: string; KEY_ENCRYPTION_KEYS: string; TOKEN_ISSUER: string }): AdminCli =>
  async (...args) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...authEnv, LOG_LEVEL: 'warn' };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [AUTH_ADMIN_ENTRY, ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}: ${stdout}${stderr}`);
    return JSON.parse(stdout) as Record<string, unknown>;
  };

/** An account with one site, one member user, a Developer App and an access token. */
export const provisionTenant = async (admin: AdminCli, name: string): Promise<Tenant> => {
  const suffix = randomBytes(3).toString('hex');
  const { account } = (await admin('create-account', '--name', `${name} ${suffix}`)) as {
    account: { id: string };
  };
  const [{ site }, { user }] = (await Promise.all([
    admin('create-site', '--account', account.id, '--name', `${name} site ${suffix}`),
    admin('create-user', '--account', account.id, '--email', `dev-${suffix}@${name.toLowerCase()}.example`),
  ])) as [{ site: { id: number; name: string } }, { user: { id: string; email: string } }];
  const [, { app }] = (await Promise.all([
    admin('add-member', '--site', String(site.id), '--user', user.id),
    admin('create-app', '--user', user.id, '--name', `${name} integration`),
  ])) as [unknown, { app: { id: string } }];
  const issued = (await admin('create-token', '--app', app.id)) as {
    token: { id: string };
    access_token: string;
  };
  return {
    accountId: account.id,
    site: { id: site.id, name: site.name },
    user: { id: user.id, email: user.email },
    appId: app.id,
    token: { id: issued.token.id, accessToken: issued.access_token },
  };
};
