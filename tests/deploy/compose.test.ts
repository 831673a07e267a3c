// docker-compose.yml, checked without a Docker engine: parsed with the yaml package
// (merge keys on, as compose reads them) and held against the services' own config
// codecs, so a variable a service starts to require fails here until compose sets it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeConfig } from '@esign/platform';
import { parse } from 'yaml';
import { repoRoot } from './support/paths.js';
import { allServiceConfigs, serviceOfCommand, type ServiceConfig } from './support/service-config.js';

interface Healthcheck {
  test?: string[] | string;
  disable?: boolean;
}
interface ComposeService {
  image?: string;
  build?: string | { context: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: Healthcheck;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  restart?: string;
  stop_grace_period?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  volumes?: string[];
  [key: string]: unknown;
}
interface Compose {
  services: Record<string, ComposeService>;
  [key: string]: unknown;
}

const read = (file: string) => parse(readFileSync(join(repoRoot, file), 'utf8'), { merge: true }) as Compose;
const base = read('docker-compose.yml');
/** What `docker compose up` reads: docker-compose.yml, then docker-compose.override.yml. */
const published = read('docker-compose.override.yml');
const compose: Compose = {
  ...base,
  services: Object.fromEntries(
    Object.entries(base.services).map(([name, service]) => [
      name,
      { ...service, ...published.services[name] },
    ]),
  ),
};
const host = read('docker-compose.host.yml');
const services = Object.entries(compose.services);
const envOf = (service: ComposeService): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, String(v)]));
const commandOf = (service: ComposeService): string[] => {
  assert.ok(Array.isArray(service.command), 'command in exec form (a list)');
  return service.command;
};
/** Containers that run one of our services' entry points (main.js or migrate.js). */
const appContainers = services.flatMap(([name, service]) => {
  const runs = Array.isArray(service.command) ? serviceOfCommand(service.command) : undefined;
  return runs === undefined ? [] : [{ name, definition: service, service: runs.service, entry: runs.entry }];
});
const seconds = (duration: string | undefined): number => {
  const match = /^(\d+)(ms|s|m)$/.exec(duration ?? '');
  assert.ok(match !== null, `duration ${duration}`);
  return Number(match[1]) * { ms: 0.001, s: 1, m: 60 }[match[2] as 'ms' | 's' | 'm'];
};

// Keys of a compose service (compose-spec); a misspelt key would otherwise be ignored.
const SERVICE_KEYS = new Set(
  (
    'annotations attach blkio_config build cap_add cap_drop cgroup cgroup_parent command configs container_name ' +
    'cpu_count cpu_percent cpu_period cpu_quota cpu_rt_period cpu_rt_runtime cpu_shares cpus cpuset ' +
    'credential_spec depends_on deploy develop device_cgroup_rules devices dns dns_opt dns_search domainname ' +
    'entrypoint env_file environment expose extends external_links extra_hosts gpus group_add healthcheck ' +
    'hostname image init ipc isolation labels links logging mac_address mem_limit mem_reservation ' +
    'mem_swappiness memswap_limit network_mode networks oom_kill_disable oom_score_adj pid pids_limit platform ' +
    'ports post_start pre_stop privileged profiles pull_policy read_only restart runtime scale secrets ' +
    'security_opt shm_size stdin_open stop_grace_period stop_signal storage_opt sysctls tmpfs tty ulimits ' +
    'user userns_mode uts volumes volumes_from working_dir'
  ).split(' '),
);

let configs: ServiceConfig[];
before(async () => {
  configs = await allServiceConfigs();
});

describe('docker-compose.yml', () => {
  it('uses only keys compose knows (a typo would be silently ignored)', () => {
    for (const key of Object.keys(compose)) {
      assert.ok(
        ['name', 'services', 'volumes', 'networks', 'configs', 'secrets'].includes(key) ||
          key.startsWith('x-'),
        key,
      );
    }
    for (const [name, service] of services) {
      for (const key of Object.keys(service)) assert.ok(SERVICE_KEYS.has(key), `${name}.${key}`);
    }
  });

  it('has Postgres, RabbitMQ with its management UI, Redis, and an SMTP catcher with a web UI, each pinned and health-checked', () => {
    const infra = {
      postgres: /^postgres:\d+(\.\d+)?-alpine$/,
      rabbitmq: /^rabbitmq:\d+(\.\d+)*-management(-alpine)?$/,
      mailpit: /^axllent\/mailpit:v\d+\.\d+(\.\d+)?$/,
      redis: /^redis:\d+(\.\d+)*-alpine$/,
    };
    for (const [name, image] of Object.entries(infra)) {
      const service = compose.services[name];
      assert.ok(service !== undefined, name);
      assert.match(service.image ?? '', image);
      assert.ok(
        Array.isArray(service.healthcheck?.test) && service.healthcheck.test[0] === 'CMD',
        `${name} healthcheck`,
      );
    }
    assert.ok(
      compose.services.rabbitmq!.ports?.some((p) => p.endsWith(':15672')),
      'RabbitMQ management UI published',
    );
    assert.ok(
      compose.services.mailpit!.ports?.some((p) => p.endsWith(':8025')),
      'Mailpit web UI published',
    );
  });

  it('runs each service from the image built from the Dockerfile, in exec form, pointing at a real entry point', () => {
    for (const config of configs) {
      const service = compose.services[config.service];
      assert.ok(service !== undefined, `compose has no ${config.service} service`);
      const context = typeof service.build === 'string' ? service.build : service.build?.context;
      assert.equal(context, '.', `${config.service} builds from the repository's Dockerfile`);
      assert.deepEqual(commandOf(service), ['node', `services/${config.service}/dist/src/main.js`]);
    }
    for (const container of appContainers) {
      const source = join(repoRoot, 'services', container.service, 'src', `${container.entry}.ts`);
      assert.ok(existsSync(source), `${container.name} runs a file that is not built from any source`);
    }
  });

  it('sets every variable each service requires, with values its config codec accepts (services and migrations)', () => {
    assert.ok(appContainers.length >= configs.length);
    for (const container of appContainers) {
      const config = configs.find((c) => c.service === container.service)!;
      const env = envOf(container.definition);
      const missing = config.mustSet
        .filter((v) => env[v.name] === undefined || env[v.name] === '')
        .map((v) => v.name);
      assert.deepEqual(missing, [], `${container.name} lacks ${missing.join(', ')}`);
      assert.doesNotThrow(
        () => decodeConfig(config.codec, config.defaults, env),
        `${container.name}'s environment`,
      );
    }
  });

  it('health-checks every service on /readyz of its own PORT, and gives it longer than its 20 s drain to stop', () => {
    for (const config of configs) {
      const service = compose.services[config.service]!;
      const test = service.healthcheck?.test;
      assert.ok(Array.isArray(test) && test[0] === 'CMD', `${config.service}: exec-form healthcheck`);
      assert.match(test.join(' '), /\/readyz/);
      assert.match(test.join(' '), /process\.env\.PORT/);
      assert.ok(envOf(service).PORT !== undefined, `${config.service} sets PORT (the healthcheck reads it)`);
      assert.ok(seconds(service.stop_grace_period) >= 25, `${config.service} stop_grace_period`);
      assert.equal(service.restart, 'unless-stopped');
    }
  });

  it('runs every container of ours read-only, without capabilities or privilege gain, /tmp in memory', () => {
    for (const { name, definition: service } of appContainers) {
      assert.equal(service.read_only, true, name);
      assert.deepEqual(service.tmpfs, ['/tmp'], name);
      assert.deepEqual(service.cap_drop, ['ALL'], name);
      assert.ok(service.security_opt?.includes('no-new-privileges:true'), name);
    }
  });

  it('migrates each database in a one-shot step its service waits for', () => {
    for (const config of configs.filter((c) => c.variables.has('DATABASE_URL'))) {
      const migration = appContainers.find((c) => c.service === config.service && c.entry === 'migrate');
      assert.ok(migration !== undefined, `no migration step for ${config.service}`);
      const step = compose.services[migration.name]!;
      assert.equal(step.restart, 'no');
      assert.equal(step.depends_on?.postgres?.condition, 'service_healthy');
      assert.equal(
        compose.services[config.service]!.depends_on?.[migration.name]?.condition,
        'service_completed_successfully',
      );
    }
  });

  it('starts nothing before what it depends on is healthy (or, for a migration, completed)', () => {
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        assert.ok(target !== undefined, `${name} depends on unknown ${dependency}`);
        const expected = target.restart === 'no' ? 'service_completed_successfully' : 'service_healthy';
        assert.equal(condition, expected, `${name} → ${dependency}`);
        assert.ok(expected !== 'service_healthy' || target.healthcheck?.disable !== true);
      }
    }
  });

  it('connects the services to the compose Postgres and RabbitMQ with the credentials those are given', () => {
    const postgresPassword = compose.services.postgres!.environment?.POSTGRES_PASSWORD;
    const init = readFileSync(join(repoRoot, 'compose', 'postgres-init.sql'), 'utf8');
    const rabbit = envOf(compose.services.rabbitmq!);
    for (const { name, definition: service } of appContainers) {
      const env = envOf(service);
      if (env.DATABASE_URL !== undefined) {
        const url = new URL(env.DATABASE_URL);
        assert.equal(url.hostname, 'postgres', name);
        assert.equal(decodeURIComponent(url.password), postgresPassword, `${name}: Postgres password`);
        assert.match(
          init,
          new RegExp(`CREATE DATABASE ${url.pathname.slice(1)};`),
          `${name}: database created`,
        );
      }
      if (env.AMQP_URL !== undefined) {
        const url = new URL(env.AMQP_URL);
        assert.equal(url.hostname, 'rabbitmq', name);
        // guest may only connect from localhost, so the broker gets its own user.
        assert.notEqual(url.username, 'guest', `${name}: guest cannot connect from another container`);
        assert.equal(decodeURIComponent(url.username), rabbit.RABBITMQ_DEFAULT_USER, name);
        assert.equal(decodeURIComponent(url.password), rabbit.RABBITMQ_DEFAULT_PASS, name);
      }
    }
  });

  it('points service-to-service URLs at the right service and PORT, and e-mail at Mailpit', () => {
    const portOf = (name: string) => envOf(compose.services[name]!).PORT;
    for (const { name, definition: service } of appContainers) {
      for (const [key, value] of Object.entries(envOf(service))) {
        const target = /^([A-Z]+)_URL$/.exec(key)?.[1]?.toLowerCase();
        if (
          target === undefined ||
          compose.services[target] === undefined ||
          !configs.some((c) => c.service === target)
        ) {
          continue;
        }
        const url = new URL(value);
        assert.equal(url.hostname, target, `${name}.${key}`);
        assert.equal(url.port, portOf(target), `${name}.${key} port`);
      }
    }
    const smtp = envOf(compose.services.notifier!).SMTP_URL;
    assert.ok(smtp !== undefined && new URL(smtp).hostname === 'mailpit', 'notifier sends e-mail to Mailpit');
  });

  it('publishes ports only in docker-compose.override.yml, and only for services of the file', () => {
    for (const [name, service] of Object.entries(base.services))
      assert.equal(service.ports, undefined, `${name} publishes a port in docker-compose.yml`);
    for (const [name, service] of Object.entries(published.services)) {
      assert.ok(base.services[name] !== undefined, `override names an unknown service ${name}`);
      assert.deepEqual(Object.keys(service), ['ports'], name);
    }
  });

  it('has a host-network override that puts every service on the host network and publishes nothing', () => {
    assert.deepEqual(Object.keys(host.services).sort(), Object.keys(base.services).sort());
    for (const [name, service] of Object.entries(host.services)) {
      assert.equal(service.network_mode, 'host', name);
      assert.equal(service.ports, undefined, name);
    }
  });

  it('publishes the gateway, and only the gateway, on localhost:8080, which is its PUBLIC_BASE_URL', () => {
    const gateway = compose.services.gateway!;
    const port = envOf(gateway).PORT;
    assert.deepEqual(gateway.ports, [`127.0.0.1:8080:${port}`]);
    assert.equal(envOf(gateway).PUBLIC_BASE_URL, 'http://localhost:8080');
    for (const { name, definition: service } of appContainers) {
      if (name !== 'gateway') assert.equal(service.ports, undefined, `${name} is published`);
      if (envOf(service).PUBLIC_BASE_URL !== undefined) {
        assert.equal(envOf(service).PUBLIC_BASE_URL, 'http://localhost:8080', name);
      }
    }
  });
});
