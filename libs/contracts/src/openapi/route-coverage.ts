import { OPERATIONS } from './document.js';

/** One route as a service's router (koa's @koa/router) holds it. */
export interface RouterLayer {
  readonly path: string | RegExp;
  readonly methods: readonly string[];
}

const shape = (path: string | RegExp): string => String(path).replace(/:[A-Za-z_]+|\{[A-Za-z_]+\}/g, '{}');

/**
 * Compares a service's public routes with the documented operations of the tags it
 * serves: `undocumented` are routes the document lacks, `unserved` operations the
 * service does not route. The gateway's table is checked the same way in its tests; this
 * catches what its prefix routes (`/v1.1/apps…`) let through.
 */
export const routeCoverage = (
  layers: readonly RouterLayer[],
  tags: readonly string[],
): { undocumented: string[]; unserved: string[] } => {
  const routed = new Set(
    layers.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toUpperCase()} ${shape(layer.path)}`),
    ),
  );
  const documented = new Set(OPERATIONS.map((op) => `${op.method.toUpperCase()} ${shape(op.path)}`));
  const served = OPERATIONS.filter((op) => tags.includes(op.tag)).map(
    (op) => `${op.method.toUpperCase()} ${shape(op.path)}`,
  );
  return {
    undocumented: [...routed].filter((route) => !documented.has(route)),
    unserved: served.filter((route) => !routed.has(route)),
  };
};
