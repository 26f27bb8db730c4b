/**
 * Generated bad inputs outside JSON bodies: query and path parameters, ingest headers,
 * NDJSON bodies and signed-link paths. Companion of hostile-inputs.ts.
 */
import type { InjectOptions } from 'fastify';
import type { RouteEntry } from '../../src/api/route-table.js';
import type { BadCase } from './hostile-inputs.js';
import type { Schema } from './route-requests.js';

/** Text replacements for a query or path parameter: [label, raw (already URL-encoded) text]. */
const PARAM_TEXTS: [string, string][] = [
  ['letters', 'abc'],
  ['a negative number', '-1'],
  ['leading zeros', '001'],
  ['a fraction', '1.5'],
  ['an exponent overflowing a double', '1e400'],
  ['a 25-digit number', '9999999999999999999999999'],
  ['an empty value', ''],
  ['an encoded NUL', '%00'],
  ['encoded CR LF', 'a%0d%0aX-Injected:%201'],
  ['encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['broken percent-encoding', '%E0%A4%A'],
  ['invalid UTF-8 when decoded', '%C3%28'],
  ['a percent-encoded byte that is not UTF-8', '%ff'],
  ['an unknown enum value', 'BOGUS_VALUE'],
  ['a 100 kB value', 'q'.repeat(100_000)],
  // Key-path lists (configKeys of runs/list): a quote, an empty key, and too many keys too deep.
  ['a dotted key path with a quote and an empty key', 'a.%22b,c..d'],
  ['150 dotted key paths 40 keys deep', Array.from({ length: 150 }, (_, i) => `k${i}${'.k'.repeat(39)}`).join(',')],
];

/** Must the parameter refuse this text? Only when the schema's type or bounds exclude it. */
function paramRejects(s: Schema, label: string, text: string): boolean {
  if (s.enum) return true;
  if (s.type === 'integer')
    return (
      !/^(0|[1-9]\d{0,14})$/.test(text) ||
      (s.minimum !== undefined && Number(text) < s.minimum) ||
      (s.maximum !== undefined && Number(text) > s.maximum)
    );
  if (s.type === 'string' && s.maxLength !== undefined) return label === 'a 100 kB value';
  return false;
}

/** Each query parameter, in turn, replaced by each hostile text. */
export function queryCases(route: RouteEntry, req: InjectOptions): BadCase[] {
  const schema = (route.schema as { querystring?: Schema } | undefined)?.querystring;
  if (!schema?.properties) return [];
  const [path, query = ''] = String(req.url).split('?');
  const params = new Map(
    query
      .split('&')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  const cases: BadCase[] = [];
  for (const [name, prop] of Object.entries(schema.properties)) {
    for (const [label, text] of PARAM_TEXTS) {
      const q = new Map(params).set(name, text);
      const url = `${path}?${[...q].map(([k, v]) => `${k}=${v}`).join('&')}`;
      const mustReject =
        text === '%ff' || (paramRejects(prop, label, text) && !(label === 'an empty value' && prop.type === 'string'));
      cases.push({ name: `?${name} = ${label}`, req: { ...req, url }, mustReject });
    }
  }
  cases.push({
    name: 'a repeated runId parameter',
    req: { ...req, url: `${String(req.url)}&runId=2` },
    mustReject: false,
  });
  return cases;
}

/** Each path parameter, in turn, replaced by each hostile text (and a 600-character one): none names the run. */
export function paramCases(route: RouteEntry, req: InjectOptions): BadCase[] {
  const pattern = route.url.split('/');
  const [path, query] = String(req.url).split('?') as [string, string | undefined];
  const segments = path.split('/');
  const cases: BadCase[] = [];
  pattern.forEach((part, i) => {
    if (!part.startsWith(':')) return;
    for (const [label, text] of [...PARAM_TEXTS, ['600 characters', 'p'.repeat(600)] as [string, string]]) {
      if (text === '') continue;
      const url = segments.map((seg, j) => (j === i ? text : seg)).join('/') + (query ? `?${query}` : '');
      cases.push({ name: `${part} = ${label}`, req: { ...req, url }, mustReject: true });
    }
  });
  return cases;
}

/**
 * The route's path with a percent-encoded byte that is not UTF-8 (`%ff`) appended to its
 * last segment and as a segment of its own: the router cannot decode either.
 */
export function badPathCases(req: InjectOptions): BadCase[] {
  const [path, query] = String(req.url).split('?') as [string, string | undefined];
  const rest = query === undefined ? '' : `?${query}`;
  return [
    {
      name: 'a bad percent-encoding in the last path segment',
      req: { ...req, url: `${path}%ff${rest}` },
      mustReject: true,
    },
    { name: 'a bad percent-encoding as a path segment', req: { ...req, url: `${path}/%ff${rest}` }, mustReject: true },
  ];
}

/** X-Run-Id / X-Project-Name variants for the ingest routes and POST /files. */
export function ingestHeaderCases(req: InjectOptions): BadCase[] {
  const headers = req.headers as Record<string, string>;
  const variants: [string, Record<string, string | undefined>, boolean][] = [
    ['no X-Run-Id', { 'x-run-id': undefined }, true],
    ['X-Run-Id None', { 'x-run-id': 'None' }, true],
    ['X-Run-Id -1', { 'x-run-id': '-1' }, true],
    ['X-Run-Id 1.5', { 'x-run-id': '1.5' }, true],
    ['X-Run-Id with a leading zero', { 'x-run-id': `0${headers['x-run-id']}` }, true],
    ['X-Run-Id 1e400', { 'x-run-id': '1e400' }, true],
    ['X-Run-Id with 30 digits', { 'x-run-id': '9'.repeat(30) }, true],
    ['X-Run-Id of a missing run', { 'x-run-id': '987654321' }, true],
    ['X-Project-Name of another project', { 'x-project-name': 'not-this-project' }, true],
    ['X-Project-Name with traversal', { 'x-project-name': '../../x' }, true],
    ['X-Project-Name with a bidirectional control', { 'x-project-name': 'a\u202eb' }, true],
    ['X-Project-Name of 100 kB', { 'x-project-name': 'n'.repeat(100_000) }, true],
    ['X-Project-Name with surrounding whitespace', { 'x-project-name': ` ${headers['x-project-name']} ` }, false],
  ];
  return variants.map(([name, change, mustReject]) => {
    const merged: Record<string, string> = { ...headers };
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete merged[k];
      else merged[k] = v;
    }
    return { name, req: { ...req, headers: merged }, mustReject };
  });
}

const MB = 1024 * 1024;

/** The metric that the huge-step cases write: reading it back must stay cheap. */
export const HUGE_STEP_METRIC = 'hostile/huge-step';

/** A flat histogram of 300 000 values (wide, not deep). */
const HISTOGRAM = JSON.stringify({
  type: 'Histogram',
  freq: Array.from({ length: 300_000 }, (_, i) => i % 7),
  bins: { min: 0, max: 1, num: 300_000 },
});

/** NDJSON bodies for one ingest kind: [label, body, must refuse]. */
export function ndjsonBodies(kind: string): [string, string | Buffer, boolean][] {
  const good =
    kind === 'metrics'
      ? '{"time":1,"step":0,"data":{"hostile/m":1}}'
      : kind === 'logs'
        ? '{"time":1,"message":"m","lineNumber":1,"logType":"INFO"}'
        : '{"time":1,"step":0,"data":"{}","dataType":"TEXT","logName":"hostile/d"}';
  const edit = (patch: Record<string, unknown>) => JSON.stringify({ ...(JSON.parse(good) as object), ...patch });
  const huge = (step: number) =>
    kind === 'metrics' ? JSON.stringify({ time: 1, step, data: { [HUGE_STEP_METRIC]: 1 } }) : edit({ step });
  const raw = (field: string, text: string) => good.replace(new RegExp(`"${field}":[^,}]*`), `"${field}":${text}`);
  return [
    ['a truncated line', '{"time":1,', true],
    ['a line that is not JSON', 'not json', true],
    ['a JSON array line', '[1,2]', true],
    ['a JSON null line', 'null', true],
    ['good lines then a bad one', `${good}\n${good}\n{"time":`, true],
    ['a negative step', edit({ step: -1 }), true],
    ['a fractional step', edit({ step: 1.5 }), true],
    ['a step of 2^64', edit({ step: 2 ** 64 }), true],
    // Accepted steps at the top of the range must be readable later (see HUGE_STEP_METRIC).
    ['a step of 2^53 - 1', huge(Number.MAX_SAFE_INTEGER), false],
    ['a step of 1e15', huge(1e15), false],
    ['a lone surrogate in a name', kind === 'metrics' ? good.replace('hostile/m', 'lone\\ud800') : good, false],
    ['a 300 000-value histogram', kind === 'data' ? edit({ data: HISTOGRAM, dataType: 'HISTOGRAM' }) : good, false],
    ['a number overflowing a double', kind === 'logs' ? raw('time', '1e400') : raw('step', '1e400'), true],
    ['a negative time', edit({ time: -5 }), true],
    ['a string time', edit({ time: 'yesterday' }), true],
    ['no time', edit({ time: undefined }), true],
    // Data lines take objects and arrays as data (stored as JSON text); metrics need an object.
    ['a wrong-typed data field', edit({ data: [1, 2] }), kind === 'metrics'],
    [
      'a metric value that is a string',
      kind === 'metrics' ? edit({ data: { 'hostile/m': 'abc' } }) : good,
      kind === 'metrics',
    ],
    [
      'a metric value that is an object',
      kind === 'metrics' ? edit({ data: { 'hostile/m': { a: 1 } } }) : good,
      kind === 'metrics',
    ],
    ['an unknown log type', kind === 'logs' ? edit({ logType: 'BOGUS_VALUE' }) : good, false],
    ['a logName with traversal', kind === 'data' ? edit({ logName: '../../etc' }) : good, false],
    [
      'an extra field nested 1000 deep',
      edit({ extra: JSON.parse(`${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`) as unknown }),
      false,
    ],
    ['a NUL byte in a string', edit({ message: 'a\u0000b', logName: 'a\u0000b' }), false],
    ['a raw NUL byte', `${good}\u0000`, true],
    ['invalid UTF-8', Buffer.concat([Buffer.from(good.slice(0, -1)), Buffer.from([0xff, 0xfe, 0x7d])]), true],
    ['a byte-order mark', `\ufeff${good}`, false],
    ['CR LF line ends', `${good}\r\n${good}\r\n`, false],
    ['only blank lines', '\n\n  \n', false],
    [
      'a 10 MB name or message',
      kind === 'metrics'
        ? edit({ data: { ['w'.repeat(10 * MB)]: 1 } })
        : edit(kind === 'logs' ? { message: 'w'.repeat(10 * MB) } : { logName: 'w'.repeat(10 * MB) }),
      kind !== 'logs',
    ],
    ['lines nested 100 000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, true],
  ];
}

/** The ingest bodies for a route, sent with the route's valid headers. */
export function ndjsonCases(route: RouteEntry, req: InjectOptions): BadCase[] {
  const kind = route.url.split('/').pop()!;
  return ndjsonBodies(kind).map(([name, payload, mustReject]) => ({ name, req: { ...req, payload }, mustReject }));
}

/** Signed-link paths that try to escape the blob root or use another file's signature. */
export function signedPathCases(req: InjectOptions): BadCase[] {
  const [path, query] = String(req.url).split('?') as [string, string];
  const prefix = path.split('/').slice(0, 3).join('/');
  return [
    ['traversal in the path', `${prefix}/../../../etc/passwd?${query}`],
    ['encoded traversal', `${prefix}/..%2F..%2Fetc%2Fpasswd?${query}`],
    ['a NUL in the path', `${path}%00?${query}`],
    ['the signature of another path', `${path}.other?${query}`],
    ['an expired signature', `${path}?expires=1&sig=${'A'.repeat(43)}`],
    ['broken percent-encoding', `${prefix}/%E0%A4%A?${query}`],
  ].map(([name, url]) => ({ name: name!, req: { ...req, url: url! }, mustReject: true }));
}
