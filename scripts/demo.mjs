// The local demo `npm start` prints: an account, a Site, a user with API access, a
// Developer App, an access token and a published HTML contract template, made once with
// auth's admin CLI and the public API through the gateway, and kept in
// <data>/demo.json. Clearly marked as local: nothing here belongs in production.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localSecrets, localSettings, root, serviceEnvironment } from './lib/local-env.mjs';

const DEMO_EMAIL = 'demo@esign.localhost';

const DEMO_TEMPLATE = {
  type: 'html',
  name: 'Demo services agreement',
  html: [
    '<h1>Services agreement</h1>',
    '<p>This agreement is made between <strong>Demo Co.</strong> and {{client_name}} ({{client_company}}).</p>',
    '<p>The client engages Demo Co. for the services described in the order form, for a fee of {{fee}}.</p>',
  ].join('\n'),
  fields: [
    { name: 'job_title', type: 'text', max_length: 100 },
    { name: 'accept_terms', type: 'checkbox' },
    { name: 'signature', type: 'signature' },
  ],
};

/**
 * Auth's admin commands (`npm run admin`) over one pool, in this process: one start of
 * Node and one migration check for all the demo's commands, not one per command (a
 * newcomer's first `npm start` on a busy machine spent most of its time starting them).
 */
const openAdmin = async (env) => {
  const dist = (path) => import(pathToFileURL(join(root, path)).href);
  const { openAdminSession } = await dist('services/auth/dist/src/adapters/cli/admin-session.js');
  const { createLogger } = await dist('libs/platform/dist/src/index.js');
  const opened = await openAdminSession(env, createLogger('auth-admin', 'warn', { stderr: true }));
  if ('failure' in opened) throw new Error(`admin: ${opened.failure.message}`);
  const { session } = opened;
  return {
    /** Runs `npm run admin -- <args>` with `extraEnv` added; answers its JSON, or throws its message. */
    run: async (args, extraEnv = {}) => {
      let json;
      const errors = [];
      const io = { out: (j) => (json = j), err: (line) => errors.push(line), env: { ...env, ...extraEnv } };
      if ((await session.run(args, io)) !== 0)
        throw new Error(`admin ${args[0]} failed: ${errors.join(' ')}`);
      return json;
    },
    close: session.close,
  };
};

/** Every call is bounded: npm start prints its banner, with or without the demo, and never hangs here. */
const API_TIMEOUT_MS = 60_000;

const api = async (gatewayUrl, token, method, path, body) => {
  const response = await fetch(new URL(path, gatewayUrl), {
    method,
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
};

const stillWorks = async (gatewayUrl, demo) => {
  try {
    const response = await fetch(new URL(`/v1.1/sites/${demo.site_id}/requests?per_page=1`, gatewayUrl), {
      headers: { authorization: `Bearer ${demo.access_token}` },
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    return response.ok;
  } catch {
    return false;
  }
};

const create = async (gatewayUrl) => {
  const settings = localSettings();
  const admin = await openAdmin(serviceEnvironment(settings, localSecrets(settings.dataDir), 'auth'));
  try {
    return await createWith(admin, gatewayUrl);
  } finally {
    await admin.close();
  }
};

const createWith = async (admin, gatewayUrl) => {
  const { account } = await admin.run([
    'create-account',
    '--name',
    `Local demo ${randomBytes(3).toString('hex')} (not for production)`,
  ]);
  const { site } = await admin.run(['create-site', '--account', String(account.id), '--name', 'Demo site']);
  const password = randomBytes(12).toString('base64url');
  // Handed over in the CLI's environment, not as `--password <p>`: a base64url password
  // starts with '-' one time in 64, and the CLI's parser then refuses it as a flag.
  const withPassword = { ESIGN_USER_PASSWORD: password };
  const existing = (await admin.run(['list', 'users'])).users.find((u) => u.email === DEMO_EMAIL);
  if (existing === undefined) {
    await admin.run(['create-user', '--account', String(account.id), '--email', DEMO_EMAIL], withPassword);
  } else {
    await admin.run(['set-password', '--user', DEMO_EMAIL], withPassword);
  }
  await admin.run(['add-member', '--site', String(site.id), '--user', DEMO_EMAIL]);
  const { app } = await admin.run(['create-app', '--user', DEMO_EMAIL, '--name', 'Demo app']);
  const { access_token } = await admin.run([
    'create-token',
    '--app',
    String(app.id),
    '--name',
    'npm start demo',
  ]);
  const template = await api(
    gatewayUrl,
    access_token,
    'POST',
    `/v1.1/sites/${site.id}/contracts`,
    DEMO_TEMPLATE,
  );
  await api(gatewayUrl, access_token, 'POST', `/v1.1/contracts/${template.id}/publish`);
  return { site_id: site.id, contract_id: template.id, email: DEMO_EMAIL, password, access_token };
};

/** Makes the demo once (or again when its token no longer works) and answers what to print. */
export const ensureDemo = async ({ dataDir, gatewayUrl }) => {
  const file = join(dataDir, 'demo.json');
  let demo = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  try {
    if (demo === undefined || !(await stillWorks(gatewayUrl, demo))) {
      demo = await create(gatewayUrl);
      writeFileSync(file, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
    }
  } catch (error) {
    return `\n  Local demo: could not be created (${error instanceof Error ? error.message : error}).\n  Create an account and token with \`npm run admin\` (see README, "Admin CLI").\n`;
  }
  return `
  LOCAL DEMO (for trying it out; kept in ${file}):
    Site ${demo.site_id}, published HTML template ${demo.contract_id}
    Web app:  ${gatewayUrl.replace(/\/+$/, '')}/app/  sign in with
              E-mail    ${demo.email}
              Password  ${demo.password}
    Access token: ${demo.access_token}

    Try it:
      TOKEN=$(node -p "require('${file}').access_token")
      curl -s ${gatewayUrl}/v1.1/sites/${demo.site_id}/requests -H "Authorization: Bearer $TOKEN" \\
        -H 'Content-Type: application/json' -d '{"contracts":[${demo.contract_id}],"signers":[{"signer_id":"client-1","signer":{"email":"you@example.com"},"send_to":{"email":true}}],"render_data":{"client_name":"Ada","client_company":"Analytical Ltd","fee":"$1,000"},"fields":[{"name":"job_title","assigned_to":"you@example.com"}]}'
      curl -s -X POST ${gatewayUrl}/v1.1/requests/<id>/send -H "Authorization: Bearer $TOKEN"
`;
};
