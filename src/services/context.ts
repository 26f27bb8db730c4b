import type { Config } from '../config.js';
import type { Actor, Principal } from '../domain/types.js';
import type { EventStore } from '../store/event-store.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { OAuthStore } from '../store/oauth-store.js';
import type { SeriesStore } from '../store/series-store.js';
import type { BlobStore } from '../blob/blob-store.js';
import type { UrlSigner } from '../blob/url-signer.js';

/** What the services work with: configuration and the stores. Built once per process. */
export interface Deps {
  config: Config;
  metadata: MetadataStore;
  series: SeriesStore;
  events: EventStore;
  /** The OAuth 2.1 authorization server's storage (docs/api.md §18). */
  oauth: OAuthStore;
  blobs: BlobStore;
  signer: UrlSigner;
}

/** The stores Deps holds, as openStores gives them (one database's metadata, series, events, OAuth). */
export type DepsStores = Pick<Deps, 'metadata' | 'series' | 'events' | 'oauth'>;

/** The dependencies of a process: its configuration, the stores of its database, its blobs and signer. */
export const depsOf = (config: Config, stores: DepsStores, blobs: BlobStore, signer: UrlSigner): Deps => ({
  config,
  metadata: stores.metadata,
  series: stores.series,
  events: stores.events,
  oauth: stores.oauth,
  blobs,
  signer,
});

/** One request's view: the dependencies and who is asking. */
export interface Ctx {
  deps: Deps;
  principal: Principal;
}

/** The deepest fork lineage followed when reading a forked run's series. */
export const MAX_LINEAGE_DEPTH = 32;

/** Who the request acts as, as recorded on what it changes: its user and key. */
export const actorOf = (ctx: Ctx): Actor => ({ userId: ctx.principal.userId, keyId: ctx.principal.keyId });
