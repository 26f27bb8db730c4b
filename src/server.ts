import http from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { ConnectionGate, httpServerOptions } from './api/connection-limits.js';
import { answerClientError } from './api/hooks/client-errors.js';
import type { App } from './api/app-types.js';
import { openBlobStore } from './blob/open-blob-store.js';
import { UrlSigner } from './blob/url-signer.js';
import type { Config } from './config.js';
import { randomBytes } from 'node:crypto';
import { storeInvitation } from './auth/invitations.js';
import { hashApiKey } from './services/api-keys.js';
import { bootstrapInstallation } from './services/bootstrap.js';
import type { MetadataStore } from './store/metadata-store.js';
import { depsOf, type Deps } from './services/context.js';
import { startStaleRunSweeper } from './services/stale-runs.js';
import { startTrashSweeper } from './services/run-purge.js';
import { startDeliveryWorker } from './events/delivery-worker.js';
import { openStores } from './store/open-stores.js';

/** The ports the Python client derives from `settings={"host": H}` (API, ingest, heartbeat). */
export const PLUTO_PORTS = [3001, 3003, 3004] as const;

/**
 * Connections the kernel completes before the server accepts them (Node's default is 511;
 * Linux caps it at net.core.somaxconn). A burst of connections from one client past a full
 * queue makes every other client's handshake wait for a retransmit (1 s and more).
 */
const LISTEN_BACKLOG = 4096;

export interface RunningServer {
  app: App;
  deps: Deps;
  /** The key created at first start, if this start created one. */
  bootstrapKey: string | undefined;
  /** With it, a one-time link (7 days) that sets the first owner's email and password. */
  ownerLink: string | undefined;
  /** Stops accepting, finishes in-flight requests, closes the stores. */
  close(): Promise<void>;
}

/** Opens the stores, bootstraps a fresh installation, builds the app and listens. */
export async function startServer(
  config: Config,
  logger: FastifyServerOptions['logger'] = false,
): Promise<RunningServer> {
  const stores = await openStores(config);
  // Under the database-wide lock, so servers starting at once on one database bootstrap once.
  const bootstrapKey = await stores.exclusive(() =>
    bootstrapInstallation(stores.metadata, config.dataDir, config.bootstrapKey),
  );
  const ownerLink =
    bootstrapKey === undefined ? undefined : await createOwnerLink(stores.metadata, config, bootstrapKey);
  const signer = new UrlSigner(
    await stores.metadata.getSecret('url-signing', () => randomBytes(32).toString('base64url')),
  );
  const blobs = await openBlobStore(config, signer);
  const deps: Deps = depsOf(config, stores, blobs, signer);
  const app = await buildApp(deps, { logger });
  // One count of connections over every port, so the caps hold for the process.
  const gate = new ConnectionGate(config, (refused) =>
    app.log.warn(refused, 'connections refused: too many open (STEPWISE_MAX_CONNECTIONS[_PER_ADDRESS])'),
  );
  gate.watch(app.server);
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const sweeper = startStaleRunSweeper(
    stores.metadata,
    config.staleAfterMs,
    (err) => app.log.error({ err }, 'stale-run sweep failed'),
    (count) => app.log.info({ count }, 'marked stale runs FAILED'),
  );
  const trashSweeper = startTrashSweeper(
    deps,
    (err) => app.log.error({ err }, 'trash sweep failed'),
    (sweep) => app.log.info(sweep, 'trash sweep: runs purged or moved to the trash by retention'),
  );
  const deliveries = startDeliveryWorker({
    events: stores.events,
    publicUrl: config.publicUrl,
    allowPrivate: config.webhookAllowPrivate,
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
    pollMs: config.webhookPollMs,
    onError: (err) => app.log.error({ err }, 'webhook delivery failed'),
  });
  // The Python client's ports are more listeners of the same app (building the app is the
  // costly part of start-up, so it is built once).
  const extra: http.Server[] = [];
  if (config.plutoPorts) {
    for (const port of PLUTO_PORTS) {
      const mirror = http.createServer(httpServerOptions(config), (req, res) => app.routing(req, res));
      mirror.on('clientError', answerClientError);
      gate.watch(mirror);
      await new Promise<void>((resolve, reject) => {
        mirror.once('error', reject);
        mirror.listen({ port, host: config.host, backlog: LISTEN_BACKLOG }, () => resolve());
      });
      extra.push(mirror);
    }
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    deps,
    bootstrapKey,
    ownerLink,
    close: () =>
      (closing ??= (async () => {
        await Promise.all([
          app.close(),
          ...extra.map(
            (server) =>
              new Promise<void>((resolve) => {
                server.keepAliveTimeout = 50;
                server.close(() => resolve());
                server.closeIdleConnections();
              }),
          ),
        ]);
        await sweeper.stop();
        await trashSweeper.stop();
        await deliveries.stop();
        await blobs.close();
        await stores.close();
      })()),
  };
}

/** The first owner's invitation: accepting it sets that user's email, name and password. */
async function createOwnerLink(store: MetadataStore, config: Config, key: string): Promise<string> {
  const owner = (await store.findApiKeyByHash(hashApiKey(key)))!;
  const link = await storeInvitation(store, config.publicUrl, {
    orgId: owner.orgId,
    email: null,
    role: 'owner',
    userId: owner.userId,
    invitedBy: null,
  });
  return link.url;
}
