/**
 * What every MCP tool shares (docs/api.md §17): the role and scope check, the answer as
 * structured content plus its JSON text, the byte bound that cuts long lists, and errors as
 * `{error, code}` tool errors (never a protocol error, never a crash).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { atLeast, type Role } from '../domain/roles.js';
import { AppError, forbiddenRole, insufficientScope, resultTooLarge } from '../errors.js';
import type { Ctx } from '../services/context.js';

/** What a tool may do: read, or change runs (the member role and, for a token, `runs:write`). */
export type ToolAccess = 'read' | 'write';

const NEEDS: Record<ToolAccess, { role: Role; scopes: readonly string[] }> = {
  read: { role: 'viewer', scopes: ['runs:read', 'runs:write'] },
  write: { role: 'member', scopes: ['runs:write'] },
};

/**
 * Throws FORBIDDEN_ROLE when the principal's role is narrower than the access needs (as the
 * HTTP route of the same change), and INSUFFICIENT_SCOPE when it is an access token (scopes
 * not null) without a scope that allows it.
 */
export function checkAccess(ctx: Ctx, access: ToolAccess, tool: string): void {
  const need = NEEDS[access];
  const { role, scopes } = ctx.principal;
  if (scopes !== null && !need.scopes.some((s) => scopes.includes(s))) {
    throw insufficientScope(
      `${tool} needs the scope ${need.scopes.join(' or ')}; this token has ${scopes.join(' ') || 'none'}`,
    );
  }
  if (!atLeast(role, need.role)) {
    throw forbiddenRole(`${tool} needs the role ${need.role} or wider; yours is ${role}`);
  }
}

/** A tool error carrying `{error, code}` as its text. */
export function errorResult(error: string, code: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error, code }) }] };
}

/** The answer of a tool: its structured content and the same JSON as text. */
export function answerResult(answer: Record<string, unknown>, text = JSON.stringify(answer)): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: answer };
}

/** A thrown error as a tool error: an AppError's code and sentence, anything else INTERNAL without its cause. */
export function thrownResult(err: unknown, onInternal: (err: unknown) => void): CallToolResult {
  if (err instanceof AppError) return errorResult(err.message, err.code);
  onInternal(err);
  return errorResult('internal error; the cause is in the server log', 'INTERNAL');
}

/** A list cut to a byte budget: the items kept and whether some were left out. */
export interface Fitted<T> {
  items: T[];
  cut: boolean;
}

/**
 * The first items of `items` whose JSON texts (with commas) fit in `budget` bytes after
 * `usedBytes` (the rest of the answer); `cut` is true when some were left out. Keeps order.
 */
export function fitItems<T>(items: readonly T[], usedBytes: number, budget: number): Fitted<T> {
  // Most lists fit whole: one serialisation of the list decides, item by item only when it does not.
  if (usedBytes + Buffer.byteLength(JSON.stringify(items)) <= budget) return { items: [...items], cut: false };
  let bytes = usedBytes;
  for (let i = 0; i < items.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (bytes > budget) return { items: items.slice(0, i), cut: true };
  }
  return { items: [...items], cut: false };
}

/**
 * The answer with its list `key` cut to fit `budget` bytes of JSON, plus `total` (how many
 * items match, when known; else the items seen) and `hasMore` (items after these: later
 * pages, or cut for bytes). `offset` is where the page started; `more` says the read itself
 * knows of items after the page. Throws RESULT_TOO_LARGE when the answer without any of its
 * items would pass the budget.
 */
export function boundedAnswer<A extends Record<string, unknown>, K extends keyof A & string>(
  answer: A,
  key: K,
  page: { offset: number; total: number | null; more?: boolean },
  budget: number,
): A & { total: number | null; hasMore: boolean } {
  const items = answer[key] as unknown[];
  const rest = { ...answer, [key]: [], total: page.total, hasMore: true };
  const restBytes = Buffer.byteLength(JSON.stringify(rest));
  if (restBytes > budget) {
    throw resultTooLarge(
      `this answer would hold ${restBytes} bytes besides its ${key}, more than the ${budget} one MCP answer may ` +
        'hold (STEPWISE_MCP_MAX_BYTES); ask for less (fewer config keys, a narrower read)',
    );
  }
  const fitted = fitItems(items, restBytes, budget);
  const seen = page.offset + fitted.items.length;
  const hasMore = fitted.cut || page.more === true || (page.total !== null && seen < page.total);
  return { ...answer, [key]: fitted.items, total: page.total, hasMore };
}

/** The JSON text pieces of an answer (as a route would send them) parsed back into the answer. */
export async function parsedAnswer<R>(pieces: AsyncIterable<string> | Promise<string[]>): Promise<R> {
  let text = '';
  for await (const piece of await pieces) text += piece;
  return JSON.parse(text) as R;
}
