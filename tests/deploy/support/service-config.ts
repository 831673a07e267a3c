import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as t from 'io-ts';
import { repoRoot } from './paths.js';

/** One environment variable a service reads, as its own config codec declares it. */
export interface Variable {
  readonly name: string;
  readonly codec: t.Mixed;
  readonly defaultValue: string | undefined;
  /** In the codec's required props and without a default: start-up fails when unset. */
  readonly required: boolean;
  /** Has a default, but one naming this machine (127.0.0.1, localhost): wrong in a container. */
  readonly loopbackDefault: boolean;
  /** A credential: must come from a Secret in Kubernetes, never a ConfigMap. */
  readonly secret: boolean;
}

export interface EntryConfig {
  readonly service: string;
  readonly codec: t.Mixed;
  readonly defaults: Record<string, string>;
  readonly variables: ReadonlyMap<string, Variable>;
  /** What compose and Kubernetes must set for this entry point: required or loopback-defaulted. */
  readonly mustSet: readonly Variable[];
}

export interface ServiceConfig extends EntryConfig {
  /** What `migrate.js` reads (`MigrateConfig`/`migrateDefaults`), when the service has a database. */
  readonly migrate: EntryConfig | undefined;
}

/** The configuration a container's entry point reads: main.js the service's, migrate.js its own. */
export const entryConfig = (config: ServiceConfig, entry: string): EntryConfig =>
  entry === 'migrate' ? config.migrate! : config;

/** The services: every folder under services/ with a src/config.ts (a fifth one counts too). */
export const serviceNames = (): string[] =>
  readdirSync(join(repoRoot, 'services'))
    .filter((name) => existsSync(join(repoRoot, 'services', name, 'src', 'config.ts')))
    .sort();

const SECRET_NAME = /(SECRET|PASSWORD|PRIVATE|_KEYS?$|AUTH_TOKEN|API_TOKEN)/;
/** A variable whose name says it holds a credential, whichever service reads it. */
export const looksSecret = (name: string): boolean => SECRET_NAME.test(name);
const LOOPBACK = /\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])([:/]|$)/;

interface Prop {
  readonly codec: t.Mixed;
  readonly optional: boolean;
}

/** Walks an io-ts codec down to its props: t.type (required), t.partial (optional), and their combinations. */
const propsOf = (codec: t.Mixed, optional = false): Map<string, Prop> => {
  const node = codec as unknown as {
    _tag?: string;
    props?: Record<string, t.Mixed>;
    types?: t.Mixed[];
    type?: t.Mixed;
    wrapped?: t.Mixed;
  };
  // Codecs built with @esign/contracts' refine/transform/strict, or marked the same way,
  // name the codec they wrap.
  if (node.wrapped !== undefined) return propsOf(node.wrapped, optional);
  switch (node._tag) {
    case 'InterfaceType':
    case 'StrictType':
    case 'PartialType':
      return new Map(
        Object.entries(node.props ?? {}).map(([name, prop]) => [
          name,
          { codec: prop, optional: optional || node._tag === 'PartialType' },
        ]),
      );
    case 'IntersectionType':
      return new Map((node.types ?? []).flatMap((part) => [...propsOf(part, optional)]));
    case 'ExactType':
    case 'RefinementType':
    case 'ReadonlyType':
      return propsOf(node.type!, optional);
    default:
      throw new Error(`cannot read the variables of a ${String(node._tag)} config codec`);
  }
};

const cache = new Map<string, Promise<ServiceConfig>>();

/** Imports `services/<name>/src/config.ts` (from source, through tsx) and reads its variables. */
export const serviceConfig = (service: string): Promise<ServiceConfig> => {
  const cached = cache.get(service);
  if (cached !== undefined) return cached;
  const loading = (async () => {
    const module = (await import(
      pathToFileURL(join(repoRoot, 'services', service, 'src', 'config.ts')).href
    )) as {
      Config?: t.Mixed;
      defaults?: Record<string, string>;
      MigrateConfig?: t.Mixed;
      migrateDefaults?: Record<string, string>;
    };
    if (module.Config === undefined || module.defaults === undefined) {
      throw new Error(`services/${service}/src/config.ts must export Config and defaults`);
    }
    return {
      ...entryOf(service, module.Config, module.defaults),
      migrate:
        module.MigrateConfig === undefined || module.migrateDefaults === undefined
          ? undefined
          : entryOf(service, module.MigrateConfig, module.migrateDefaults),
    };
  })();
  cache.set(service, loading);
  return loading;
};

const entryOf = (service: string, codec: t.Mixed, defaults: Record<string, string>): EntryConfig => {
  const variables = new Map<string, Variable>();
  for (const [name, prop] of propsOf(codec)) {
    const defaultValue = defaults[name];
    variables.set(name, {
      name,
      codec: prop.codec,
      defaultValue,
      required: !prop.optional && defaultValue === undefined,
      loopbackDefault: defaultValue !== undefined && LOOPBACK.test(defaultValue),
      secret: prop.codec.name.includes('Secret') || SECRET_NAME.test(name),
    });
  }
  return {
    service,
    codec,
    defaults,
    variables,
    mustSet: [...variables.values()].filter((v) => v.required || v.loopbackDefault),
  };
};

export const allServiceConfigs = (): Promise<ServiceConfig[]> =>
  Promise.all(serviceNames().map((name) => serviceConfig(name)));

/**
 * The service a container runs, from its command: `node services/<name>/dist/src/<file>.js`.
 * main.js loads the service's whole configuration; migrate.js only `MigrateConfig`.
 */
export const serviceOfCommand = (
  command: readonly string[],
): { service: string; entry: string } | undefined => {
  for (const part of command) {
    const match = /^services\/([a-z0-9-]+)\/dist\/src\/([a-z0-9-]+)\.js$/.exec(part);
    if (match !== null) return { service: match[1]!, entry: match[2]! };
  }
  return undefined;
};
