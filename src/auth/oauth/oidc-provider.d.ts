/**
 * The part of `oidc-provider` (which ships no types) that Stepwise uses: the authorization
 * server for tool clients (src/auth/oauth/) and the test identity provider of the SSO tests.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface OidcAccount {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  /** What an Adapter stores: the library's payload of one model instance. */
  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
  };

  /** The storage of one model (Client, Grant, AccessToken, ...), as the library calls it. */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** The part of a Koa context that middleware added with `use` reads and writes. */
  export interface KoaContext {
    status: number;
    body: unknown;
  }

  export interface InteractionPrompt {
    name: string;
    reasons: string[];
    details: Record<string, unknown>;
  }

  export interface Interaction {
    uid: string;
    exp: number;
    returnTo: string;
    prompt: InteractionPrompt;
    params: Record<string, unknown>;
    grantId?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(ttl?: number): Promise<string>;
  }

  export interface AccessToken {
    jti: string;
    grantId: string;
    clientId: string;
    accountId: string;
    aud?: string | string[];
    scope?: string;
    isExpired: boolean;
  }

  export interface ClientRecord {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
  }

  export class InvalidTarget extends Error {
    constructor(description?: string);
  }

  export const errors: { InvalidTarget: typeof InvalidTarget };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): this;
    readonly Grant: new (init: { accountId: string; clientId: string }) => Grant;
    readonly AccessToken: { find(value: string): Promise<AccessToken | undefined> };
    readonly Client: { find(id: string): Promise<ClientRecord | undefined> };
  }
}
