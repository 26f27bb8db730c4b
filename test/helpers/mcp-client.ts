import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

/** The SDK's own client, unmodified, connected to `<base>/mcp` with the key as Bearer. */
export async function mcpClient(base: string, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'stepwise-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool answer: its structured content, the JSON of its text (the same), and whether it is an error. */
export interface ToolAnswer {
  isError: boolean;
  structured: Record<string, unknown> | undefined;
  text: Record<string, unknown>;
}

/** Calls a tool and returns its answer; the text must be the JSON of the structured content. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(content[0]?.type).toBe('text');
  const text = JSON.parse(content[0]!.text) as Record<string, unknown>;
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (!result.isError) expect(structured).toEqual(text);
  return { isError: result.isError === true, structured, text };
}

/** A tool call that must succeed; returns its structured content. */
export async function toolOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const answer = await callTool(client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.text)}`).toBe(false);
  return answer.structured as T;
}

/** A tool call that must be refused with `code`; returns the {error, code} it carried. */
export async function toolRefused(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<{ error: string; code: string }> {
  const answer = await callTool(client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.text)}`).toBe(true);
  expect(answer.text.code, JSON.stringify(answer.text)).toBe(code);
  expect(typeof answer.text.error).toBe('string');
  return answer.text as { error: string; code: string };
}
