import type { Deps } from '../../services/context.js';
import type { SessionAuthenticator } from '../../services/session-authenticator.js';
import type { OAuthOnDemand } from '../../auth/oauth/oauth-on-demand.js';
import type { App } from '../app-types.js';
import { registerAlertRuleRoutes } from './alert-rules.js';
import { registerNotificationRoutes } from './notifications.js';
import { SignInLimiter } from '../../auth/sign-in-limiter.js';
import { RegistrationLimiter } from '../../auth/oauth/registration-limiter.js';
import { registerAccountRoutes } from './account.js';
import { registerApiKeyRoutes } from './api-keys.js';
import { registerMemberRoutes } from './members.js';
import { registerAuthRoutes } from './auth.js';
import { registerDashboardRoutes } from './dashboard.js';
import { registerFileRoutes } from './files.js';
import { registerIngestRoutes } from './ingest.js';
import { registerMcpRoutes } from './mcp.js';
import { registerMetricRoutes } from './metrics.js';
import { registerRunActivityRoutes } from './run-activity.js';
import { registerRunAdminRoutes } from './run-admin.js';
import { registerProjectRoutes } from './projects.js';
import { registerRunCreateRoutes } from './runs-create.js';
import { registerRunDetailsRoutes } from './runs-details.js';
import { registerRunGroupRoutes } from './runs-groups.js';
import { registerRunListRoutes } from './runs-list.js';
import { registerRunStatusRoutes } from './runs-status.js';
import { registerRunUpdateRoutes } from './runs-update.js';
import { registerSavedViewRoutes } from './saved-views.js';
import { registerOidcRoutes } from './oidc.js';
import { registerSessionRoutes } from './session.js';
import { registerWebhookRoutes } from './webhooks.js';
import { registerOAuthRoutes } from './oauth.js';
import { registerOAuthProviderRoutes } from './oauth-provider.js';

/** Registers every route of the server; the dashboard's catch-all comes last. */
export async function registerRoutes(
  app: App,
  deps: Deps,
  sessions: SessionAuthenticator,
  oauth: OAuthOnDemand,
): Promise<void> {
  registerAuthRoutes(app, deps);
  const limiter = new SignInLimiter(deps.metadata);
  registerSessionRoutes(app, deps, sessions, limiter);
  registerAccountRoutes(app, deps, sessions, limiter);
  registerOidcRoutes(app, deps, sessions);
  registerMemberRoutes(app, deps, sessions);
  registerApiKeyRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerRunCreateRoutes(app, deps);
  registerRunListRoutes(app, deps);
  registerRunGroupRoutes(app, deps);
  registerRunDetailsRoutes(app, deps);
  registerRunStatusRoutes(app, deps);
  registerRunUpdateRoutes(app, deps);
  registerRunAdminRoutes(app, deps);
  registerMetricRoutes(app, deps);
  registerRunActivityRoutes(app, deps);
  registerSavedViewRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerAlertRuleRoutes(app, deps);
  registerNotificationRoutes(app, deps);
  registerMcpRoutes(app, deps);
  await registerIngestRoutes(app, deps);
  await registerFileRoutes(app, deps);
  registerOAuthRoutes(app, deps, oauth);
  await registerOAuthProviderRoutes(app, oauth, new RegistrationLimiter(deps.metadata));
  registerDashboardRoutes(app, deps.config.uiDir);
}
