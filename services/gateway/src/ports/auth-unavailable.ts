/**
 * The rejection of the verifier's and the introspector's tasks when auth cannot be
 * asked (its key set or its introspection endpoint): an outage, never a pass. The edge
 * answers it 503 `auth_unavailable`.
 */
export class AuthUnavailable extends Error {
  constructor(what: string, options?: ErrorOptions) {
    super(`${what} unavailable`, options);
    this.name = 'AuthUnavailable';
  }
}
