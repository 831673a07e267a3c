import { FieldView, RequestList, RequestView, SignerView } from '../api.js';
import { AuthorizationList, ConsentView } from '../oauth-api.js';
import {
  AppList,
  AppView,
  ClientSecretView,
  CreatedTokenView,
  CurrentSessionView,
  JwkSet,
  OAuthErrorBody,
  OAuthTokenResponse,
  PublicJwk,
  SessionView,
  TokenList,
  TokenView,
  UserView,
} from '../auth-api.js';
import { Problem } from '../problem.js';
import { SignedInSessionList, SignedInSessionView } from '../session-api.js';
import { TestMessageList, TestMessageView } from '../test-mode.js';
import { BulkSendView } from '../bulk-send.js';
import { ContractFieldView, ContractList, ContractSummary, ContractView } from '../templates.js';
import { WebhookDeliveryList, WebhookEndpointList } from '../webhooks.js';
import { CAPTURED_EXAMPLES } from './captured-examples.js';
import { schemaRegistry, type JsonSchema, type SchemaRegistry } from './json-schema.js';
import type { Operation } from './operation.js';
import { ACCOUNT_OPERATIONS } from './operations-accounts.js';
import { APP_OPERATIONS } from './operations-apps.js';
import { INVITATION_OPERATIONS } from './operations-invitations.js';
import { SESSION_OPERATIONS } from './operations-sessions.js';
import { OAUTH_OPERATIONS } from './operations-oauth.js';
import { BRANDING_OPERATIONS, EMBEDDED_OPERATIONS } from './operations-embedded.js';
import { REQUEST_OPERATIONS } from './operations-requests.js';
import { SITE_SIGNER_OPERATIONS } from './operations-site-signers.js';
import { SIGNING_OPERATIONS } from './operations-signing.js';
import { WEBHOOK_OPERATIONS } from './operations-webhooks.js';
import { CALLBACK_OPERATIONS } from './operations-callbacks.js';
import { headerComponents, responsesOf, type Examples } from './responses.js';
import { TAGS } from './tags.js';
import { WEBHOOK_EVENTS } from './webhook-events.js';

/** Every public operation, in the order the reference page shows them. */
export const OPERATIONS: readonly Operation[] = [
  ...REQUEST_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...INVITATION_OPERATIONS,
  ...APP_OPERATIONS,
  ...OAUTH_OPERATIONS,
  ...SIGNING_OPERATIONS,
  ...EMBEDDED_OPERATIONS,
  ...BRANDING_OPERATIONS,
  ...SITE_SIGNER_OPERATIONS,
  ...CALLBACK_OPERATIONS,
];

/** Components for the views whose io-ts names are their shapes (a `t.type` has no proper name). */
const NAMED = {
  RequestView,
  SignerView,
  FieldView,
  RequestList,
  ContractSummary,
  ContractView,
  ContractFieldView,
  ContractList,
  Problem,
  AppView,
  AppList,
  AuthorizationList,
  ConsentView,
  TokenView,
  TokenList,
  CreatedTokenView,
  SessionView,
  CurrentSessionView,
  SignedInSessionView,
  SignedInSessionList,
  UserView,
  ClientSecretView,
  OAuthTokenResponse,
  OAuthErrorBody,
  JwkSet,
  PublicJwk,
  WebhookEndpointList,
  WebhookDeliveryList,
  TestMessageView,
  TestMessageList,
  BulkSendView,
};

const SECURITY: Record<Operation['auth'], readonly Record<string, never[]>[]> = {
  access_token: [{ accessToken: [] }, { clientCredentials: [] }],
  session: [{ session: [] }],
  client: [{ clientBasic: [] }, {}],
  public: [],
};

const parametersOf = (op: Operation) => {
  const path = [...op.path.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => {
    const spec = op.params?.[name!];
    if (spec === undefined) throw new Error(`${op.operationId}: path parameter ${name} is not described`);
    return {
      name,
      in: 'path',
      required: true,
      description: spec.description,
      schema: spec.integer ? { type: 'integer', minimum: 1 } : { type: 'string' },
    };
  });
  const query = Object.entries(op.query ?? {}).map(([name, spec]) => ({
    name,
    in: 'query',
    ...(spec.required ? { required: true } : {}),
    description: spec.description,
    schema: spec.schema,
  }));
  return [...path, ...query, ...(op.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [])];
};

const operationObject = (op: Operation, registry: SchemaRegistry, examples: Examples): JsonSchema => {
  const parameters = parametersOf(op);
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description === undefined ? {} : { description: op.description }),
    tags: [op.tag],
    security: SECURITY[op.auth],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body === undefined
      ? {}
      : {
          requestBody: {
            required: op.body.required ?? true,
            content: {
              [op.body.contentType ?? 'application/json']: {
                schema:
                  op.body.contentType === 'application/pdf'
                    ? { type: 'string', format: 'binary' }
                    : registry.schemaOf(op.body.codec),
              },
              // The signing form with files (ADR 3920): the same fields, each file under its input's name.
              ...(op.body.withFiles === true
                ? {
                    'multipart/form-data': {
                      schema: {
                        allOf: [
                          registry.schemaOf(op.body.codec),
                          { additionalProperties: { type: 'string', format: 'binary' } },
                        ],
                      },
                    },
                  }
                : {}),
            },
          },
        }),
    responses: responsesOf(op, registry, examples),
  };
};

const webhookObject = (event: (typeof WEBHOOK_EVENTS)[number], registry: SchemaRegistry): JsonSchema => ({
  post: {
    operationId: `${event.type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
    summary: `\`${event.type}\``,
    description: `${event.when} Delivered at least once: treat a second delivery of the same \`id\` as done.`,
    tags: ['Webhooks'],
    security: [],
    parameters: [
      {
        name: 'Esign-Signature',
        in: 'header',
        required: true,
        description:
          '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `t + "." + body` keyed with the endpoint’s secret ' +
          '(a second `v1` during a secret rotation). Refuse one older than 5 minutes.',
        schema: { type: 'string' },
      },
      {
        name: 'Esign-Event-Type',
        in: 'header',
        required: true,
        description: 'The event type.',
        schema: { type: 'string' },
      },
      {
        name: 'Esign-Delivery-Id',
        in: 'header',
        required: true,
        description: 'For support.',
        schema: { type: 'string' },
      },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: registry.schemaOf(event.payload) } },
    },
    responses: {
      '200': { description: 'Any 2xx within 10 seconds acknowledges the delivery.' },
      '410': { description: 'Any other 4xx fails the delivery at once; 408, 429 and 5xx are retried.' },
    },
  },
});

export interface OpenApiOptions {
  /** The gateway's public address (`PUBLIC_BASE_URL`). */
  readonly serverUrl?: string;
  /** Answers shown as examples; by default those captured from the end-to-end suites. */
  readonly examples?: Examples;
}

/** The OpenAPI 3.1 document of the public API, generated from the codecs and the operations above. */
export const openApiDocument = (options: OpenApiOptions = {}): JsonSchema => {
  const registry = schemaRegistry(NAMED);
  const examples = options.examples ?? CAPTURED_EXAMPLES;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op, registry, examples);
  const webhooks = Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e.type, webhookObject(e, registry)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-signature API',
      version: '1.1',
      summary: 'Send contracts to signers for execution.',
      description:
        'Create a signature Request on a Site, send it, and redirect each signer to their Execution URL. ' +
        'Every call carries `Authorization: Bearer <ACCESS_TOKEN>` unless it says otherwise; errors are ' +
        '`application/problem+json` (RFC 9457) with a stable machine `code`. Within v1.1 changes are ' +
        'additive only (new endpoints, optional inputs, answer fields, problem codes and event types: ignore ' +
        'what you do not know); anything else comes under a new version segment, announced with `Deprecation` ' +
        'and `Sunset` headers at least 12 months ahead (README, "Versions and compatibility").',
    },
    servers: [{ url: options.serverUrl ?? 'http://localhost:8080', description: 'The gateway' }],
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      schemas: registry.components(),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          description:
            'Makes a POST safe to retry: the same key and body replay the first answer (`Idempotent-Replayed: true`). ' +
            '1 to 255 visible ASCII characters, e.g. a UUID; kept at least 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      headers: headerComponents(),
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token of a Developer App; it reaches the Sites its user has been added to.',
        },
        clientCredentials: {
          type: 'oauth2',
          description:
            'Machine clients: the client-credentials grant. Apps acting for other users: the ' +
            'authorization-code grant with PKCE (S256) and rotating refresh tokens.',
          flows: {
            clientCredentials: { tokenUrl: '/oauth/token', scopes: {} },
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes: {},
            },
          },
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'The `session_token` of `POST /v1.1/sessions`, for the self-service API.',
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'The app’s client id and client secret.' },
      },
    },
  };
};
