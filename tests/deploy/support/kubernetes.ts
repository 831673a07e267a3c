import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from './paths.js';

/** A rendered Kubernetes object, loosely typed: the tests read what they check. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [key: string]: unknown;
}

/** `kubectl kustomize <dir>`, parsed. */
export const render = (dir: string): K8sObject[] => {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', join(repoRoot, dir)], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'kubectl is not installed: the k8s checks render with `kubectl kustomize` (kubectl 1.27+)',
      );
    }
    throw error;
  }
  return parseAllDocuments(output).map((document) => {
    if (document.errors.length > 0) throw new Error(document.errors.map((e) => e.message).join('; '));
    return document.toJS() as K8sObject;
  });
};

/** Validates against the Kubernetes OpenAPI schemas (kubernetes-models): types, formats, required fields. */
export const schemaErrors = async (object: K8sObject): Promise<string | undefined> => {
  const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const Model = module[object.kind];
  if (Model === undefined) return `no schema for ${object.apiVersion} ${object.kind}`;
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};

/**
 * The schemas do not refuse unknown fields (Kubernetes ignores them, so `readinesProbe`
 * would silently mean no probe). The models' TypeScript types do: each object is
 * type-checked as an object literal of its kind, and excess properties are reported.
 */
export const unknownFieldErrors = (objects: readonly K8sObject[]): string[] => {
  const file = join(repoRoot, 'tests', 'deploy', '__rendered-manifests__.ts');
  const text = objects
    .map(
      (o, i) =>
        `export const o${i}: import('kubernetes-models/${o.apiVersion}').I${o.kind} = ${JSON.stringify(o)};`,
    )
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, source).map((d) => {
    const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
    const object = objects[line];
    return `${object?.kind}/${object?.metadata.name}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
};
