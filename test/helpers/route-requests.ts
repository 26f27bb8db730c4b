/**
 * Builds a valid request for any route from its recorded schema, aimed at a target run,
 * so table-driven tests cover every route of the router, new ones included.
 */
import type { InjectOptions } from 'fastify';
import type { RouteEntry } from '../../src/api/route-table.js';

/** What requests are aimed at: a run and the names around it. */
export interface Target {
  runId: number;
  displayId: string;
  sqid: string;
  projectName: string;
  externalId: string;
  metricName: string;
  /** An API key of the run's organization (not the one requests are made with). */
  apiKeyId: number;
  /** A saved view of the run's project. */
  viewId: number;
  /**
   * More saved views of the project, for DELETE /api/views/{viewId}: a delete takes the view
   * it deletes, so each request built for it aims at one of these (and uses it up).
   */
  spareViewIds: number[];
  /**
   * Runs and projects that requests which remove or stop what they aim at use up, so the
   * target run stays: live RUNNING runs (delete, stop, rename), trashed runs (restore,
   * purge) and projects with a run each (project delete, rename), all outside the target's project.
   */
  spareRunIds: number[];
  trashedRunIds: number[];
  spareProjects: string[];
  /** A webhook of the run's organization. */
  webhookId: number;
  /** More webhooks, for DELETE /api/webhooks/{webhookId} (each request uses one up). */
  spareWebhookIds: number[];
  /** An alert rule of the run's project, and more for DELETE /api/alert-rules/{ruleId}. */
  ruleId: number;
  spareRuleIds: number[];
  /** The slug of the run's organization. */
  orgSlug: string;
  /** A viewer of the run's organization (POST /api/members/{userId}/role makes it a viewer again). */
  memberUserId: number;
  /** More members, for DELETE /api/members/{userId}: each request built for it uses one up. */
  spareMemberIds: number[];
  /** The public id of a session of the owner's key (DELETE /api/account/sessions/{sessionId}). */
  sessionId: string;
  /** The password of the owner's user, when it has one (POST /api/account/password). */
  password?: string;
  /**
   * An authorization waiting for consent (docs/api.md §18): its uid and the Cookie header of
   * the browser that started it (the provider's signed interaction cookie). Deciding it
   * again only replaces the decision, so every request may use the same one.
   */
  consent: { uid: string; cookie: string };
  /** A signed upload and download path+query of one of the run's files. */
  uploadPath: string;
  downloadPath: string;
}

/** A JSON Schema as TypeBox writes it (the parts the sampler reads). */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  maximum?: number;
  minProperties?: number;
  default?: unknown;
}

const JSON_FIELDS = new Set(['config', 'statusMetadata', 'loggerSettings', 'systemMetadata']);

/** Values for property names that point a request at the target. */
function aimed(name: string, s: Schema, t: Target): unknown {
  const isArray = s.type === 'array';
  switch (name) {
    case 'runId':
      return t.runId;
    case 'runIds':
      return isArray ? [t.runId] : String(t.runId);
    case 'projectName':
      return t.projectName;
    case 'displayId':
      return t.displayId;
    case 'sqid':
      return t.sqid;
    case 'logName':
      return isArray ? [t.metricName] : t.metricName;
    case 'keyId':
      return t.apiKeyId;
    case 'viewId':
      return t.viewId;
    case 'groupBy':
      return 'status,config.probe';
    case 'webhookId':
      return t.webhookId;
    case 'ruleId':
      return t.ruleId;
    case 'sessionId':
      return t.sessionId;
    case 'userId':
      return t.memberUserId;
    default:
      return JSON_FIELDS.has(name) ? '{"probe":1}' : undefined;
  }
}

/** A minimal valid value of a schema; properties named like target fields are aimed at it. */
export function sample(s: Schema, t: Target, name = ''): unknown {
  const value = aimed(name, s, t);
  if (value !== undefined) return value;
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return sample(s.anyOf.find((v) => v.type !== 'null') ?? s.anyOf[0]!, t, name);
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = Object.entries(s.properties ?? {});
      for (const [key, prop] of props) {
        if (s.required?.includes(key) || aimed(key, prop, t) !== undefined) out[key] = sample(prop, t, key);
      }
      // A body of optional fields that needs some (a PATCH): the first ones, in order.
      for (const [key, prop] of props) {
        if (Object.keys(out).length >= (s.minProperties ?? 0)) break;
        if (!(key in out)) out[key] = sample(prop, t, key);
      }
      return out;
    }
    case 'array':
      return s.items ? [sample(s.items, t, name)] : [];
    case 'string':
      return 'p'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** Saved views made by requests so far: each POST /api/views names a new one. */
let viewsSaved = 0;

/** The next of a target's spare runs or projects, for a request that uses it up. */
function spare<T>(list: T[], what: string): T {
  const next = list.shift();
  if (next === undefined) throw new Error(`the target has no spare ${what} left: make more in createVictim`);
  return next;
}

/** Projects renamed by requests so far: each rename takes a new name. */
let projectsRenamed = 0;
/** Invitations made by requests so far: each POST /api/members/invite names a new address. */
let invited = 0;

/** Request parts that a schema cannot describe, by route. */
function special(route: RouteEntry, t: Target): Partial<InjectOptions> | undefined {
  const key = `${route.method} ${route.url}`;
  const ndjson = (line: object) => ({
    payload: `${JSON.stringify(line)}\n`,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  const json = (body: object) => ({ payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  switch (key) {
    case 'POST /ingest/metrics':
      return ndjson({ time: 1, step: 0, data: { [t.metricName]: 1 } });
    case 'POST /ingest/logs':
      return ndjson({ time: 1, message: 'probe', lineNumber: 1, logType: 'INFO' });
    case 'POST /ingest/data':
      return ndjson({ time: 1, step: 0, data: '{}', dataType: 'TEXT', logName: 'probe' });
    case 'POST /api/runs/resume':
      return { payload: JSON.stringify({ runId: t.runId }), headers: { 'content-type': 'application/json' } };
    case 'PUT /files/upload/*':
      return { url: t.uploadPath, payload: 'probe', headers: { 'content-type': 'application/octet-stream' } };
    case 'GET /files/download/*':
      return { url: t.downloadPath };
    case 'POST /api/views':
      return {
        payload: JSON.stringify({ projectName: t.projectName, name: `probe-${++viewsSaved}`, state: {} }),
        headers: { 'content-type': 'application/json' },
      };
    case 'POST /api/members/invite':
      return {
        payload: JSON.stringify({ email: `probe-${++invited}@victim.test`, role: 'viewer' }),
        headers: { 'content-type': 'application/json' },
      };
    case 'DELETE /api/members/:userId':
      return { url: `/api/members/${spare(t.spareMemberIds, 'member')}` };
    case 'POST /api/account/organization':
      return { payload: JSON.stringify({ organization: t.orgSlug }), headers: { 'content-type': 'application/json' } };
    case 'POST /api/account/password': {
      // The same password again: the owner's stays what it is for the next request.
      const password = t.password ?? 'no password of the owner';
      return {
        payload: JSON.stringify({ currentPassword: password, newPassword: password }),
        headers: { 'content-type': 'application/json' },
      };
    }
    case 'DELETE /api/views/:viewId':
      return { url: `/api/views/${spare(t.spareViewIds, 'saved view')}` };
    case 'POST /api/runs/delete':
      return json({ runIds: [spare(t.spareRunIds, 'run')] });
    case 'POST /api/runs/stop':
    case 'POST /api/runs/name/update':
      return json({ runId: spare(t.spareRunIds, 'run'), name: 'probe' });
    case 'POST /api/runs/restore':
    case 'POST /api/runs/purge':
      return json({ runIds: [spare(t.trashedRunIds, 'trashed run')] });
    case 'POST /api/runs/projects/delete':
      return json({ projectName: spare(t.spareProjects, 'project') });
    case 'POST /api/runs/projects/rename':
      return json({ projectName: spare(t.spareProjects, 'project'), newName: `probe-renamed-${++projectsRenamed}` });
    case 'POST /api/webhooks':
      // A public address: targets in private ranges are refused (no delivery runs in these tests).
      return {
        payload: JSON.stringify({ url: 'http://93.184.216.34/probe', events: ['run.created'] }),
        headers: { 'content-type': 'application/json' },
      };
    case 'POST /api/alert-rules':
      return {
        payload: JSON.stringify({ projectName: t.projectName, logName: t.metricName, kind: 'above', threshold: 1e300 }),
        headers: { 'content-type': 'application/json' },
      };
    case 'DELETE /api/alert-rules/:ruleId':
      return { url: `/api/alert-rules/${spare(t.spareRuleIds, 'alert rule')}` };
    case 'POST /mcp':
      // One MCP tool call (stateless: no initialize needed) that reads the target's project.
      return {
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_runs', arguments: { projectName: t.projectName, configKeys: [] } },
        }),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      };
    case 'GET /api/oauth/consent/:uid':
      return { url: `/api/oauth/consent/${t.consent.uid}`, headers: { cookie: t.consent.cookie } };
    case 'POST /api/oauth/consent/:uid':
      // Deny: the victim gains no grant however often the walkers decide.
      return {
        url: `/api/oauth/consent/${t.consent.uid}`,
        payload: JSON.stringify({ decision: 'deny' }),
        headers: { cookie: t.consent.cookie, 'content-type': 'application/json' },
      };
    case 'DELETE /api/webhooks/:webhookId':
      return { url: `/api/webhooks/${spare(t.spareWebhookIds, 'webhook')}` };
    default:
      return undefined;
  }
}

/** The URL of a route with its path parameters and query filled from the schema. */
function urlOf(route: RouteEntry, t: Target): string {
  const schema = route.schema as { params?: Schema; querystring?: Schema } | undefined;
  let url = route.url.replace(/:(\w+)/g, (_m, name: string) =>
    encodeURIComponent(String(sample(schema?.params?.properties?.[name] ?? {}, t, name))),
  );
  const query = schema?.querystring ? (sample(schema.querystring, t) as Record<string, unknown>) : {};
  const qs = Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  if (qs) url += `?${qs}`;
  return url;
}

/**
 * A valid request for the route aimed at the target, without credentials: path and query
 * from the schemas, a sampled JSON body, ingest headers (X-Run-Id, X-Project-Name).
 */
export function requestFor(route: RouteEntry, t: Target): InjectOptions {
  const schema = route.schema as { body?: Schema } | undefined;
  const base: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url: urlOf(route, t),
    headers: { 'x-run-id': String(t.runId), 'x-project-name': t.projectName },
  };
  if (schema?.body) {
    base.payload = JSON.stringify(sample(schema.body, t));
    base.headers = { ...base.headers, 'content-type': 'application/json' };
  }
  const extra = special(route, t);
  return extra ? { ...base, ...extra, headers: { ...base.headers, ...extra.headers } } : base;
}

/**
 * The status a route answers a valid request with: its first 2xx response, else the one
 * status it declares (GET and DELETE /mcp declare only their 405), else 200.
 */
export function successStatus(route: RouteEntry): number {
  const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
  const codes = Object.keys(responses);
  return Number(codes.find((code) => /^2\d\d$/.test(code)) ?? (codes.length === 1 ? codes[0] : 200));
}

/** `METHOD /url` of a route. */
export const routeName = (r: RouteEntry): string => `${r.method} ${r.url}`;

/** A POST under /api/runs/ (create, resume, status and the other run writes). */
export const isRunWrite = (route: RouteEntry): boolean => route.method === 'POST' && route.url.startsWith('/api/runs/');
