import type { Deps } from '../../services/context.js';
import type { OAuthServer } from './oauth-server.js';

/**
 * The authorization server, built on its first use rather than at start: oidc-provider
 * costs about 250 ms and 30 MB to load, which a server that no tool client talks to never
 * needs (the start-up and memory figures of BENCHMARKS.md). Its sweep of expired records
 * starts with it; a failed build is tried again on the next use.
 */
export class OAuthOnDemand {
  private server: Promise<OAuthServer> | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly onError: (err: unknown, message: string) => void,
  ) {}

  get(): Promise<OAuthServer> {
    this.server ??= import('./oauth-server.js')
      .then(({ OAuthServer }) => OAuthServer.open(this.deps, this.onError))
      .catch((err: unknown) => {
        this.server = undefined;
        throw err;
      });
    return this.server;
  }

  /** Stops the sweep of a server that was built. */
  close(): void {
    void this.server?.then((s) => s.close()).catch(() => undefined);
  }
}
