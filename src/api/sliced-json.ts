/**
 * Serialising answers that hold many items without holding the event loop: fast-json-stringify
 * takes ~6 µs per metric point here (100,000 points: ~600 ms in one block), JSON.stringify
 * ~0.7 µs, and building the text batch by batch lets health checks and other requests run in
 * between. Batches become text as they arrive, so only strings (not item objects) pile up.
 */
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { TimeSlice } from '../time-slice.js';

/** Items serialised between two chances to yield. */
const ITEMS_PER_SLICE = 1_000;

/** Text is handed to the socket in pieces of about this many characters. */
const PIECE_CHARS = 64 * 1024;

/** Returns the items as JSON array members (no brackets), one string per slice of ITEMS_PER_SLICE. */
async function* members(batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>) {
  const slice = new TimeSlice();
  for await (const batch of batches) {
    for (let i = 0; i < batch.length; i += ITEMS_PER_SLICE) {
      await slice.tick();
      const text = JSON.stringify(
        i === 0 && batch.length <= ITEMS_PER_SLICE ? batch : batch.slice(i, i + ITEMS_PER_SLICE),
      );
      if (text.length > 2) yield text.slice(1, -1);
    }
  }
}

/** Items already serialised (JSON texts) as array members, one string per slice of ITEMS_PER_SLICE. */
async function* joined(texts: readonly string[]) {
  const slice = new TimeSlice();
  for (let i = 0; i < texts.length; i += ITEMS_PER_SLICE) {
    await slice.tick();
    yield texts.slice(i, i + ITEMS_PER_SLICE).join(',');
  }
}

/**
 * Returns the JSON text of `{...head, [key]: [...every batch's items], ...tail}` in pieces
 * (keys in that order), yielding to the event loop between slices; rejects with what
 * iterating the batches throws, before anything is sent. This bypasses the route's response
 * serializer, so head, items and tail must already be exactly the response schema's shape.
 */
export function jsonPieces(
  head: Record<string, unknown>,
  key: string,
  batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  tail: Record<string, unknown> = {},
): Promise<string[]> {
  return assemble(head, key, members(batches), tail);
}

/**
 * The same for items that are JSON texts already (each the JSON of one item, as the
 * response schema has it), put in the array as they are.
 */
export function jsonTextPieces(
  head: Record<string, unknown>,
  key: string,
  texts: readonly string[],
  tail: Record<string, unknown> = {},
): Promise<string[]> {
  return assemble(head, key, joined(texts), tail);
}

/** `{...head, [key]: [members], ...tail}` in pieces of about PIECE_CHARS. */
async function assemble(
  head: Record<string, unknown>,
  key: string,
  memberTexts: AsyncIterable<string>,
  tail: Record<string, unknown>,
): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of jsonStream(head, key, memberTexts, tail)) pieces.push(piece);
  return pieces;
}

/**
 * The items of the batches as array members for jsonStream: one text per slice of
 * ITEMS_PER_SLICE items, serialised only as it is pulled, yielding to the event loop between slices.
 */
export function itemMembers(
  batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
): AsyncGenerator<string> {
  return members(batches);
}

/**
 * Sends JSON text pieces as one buffer with a JSON content type and a Content-Length, as a
 * serialized answer is sent (no response serializer runs). One text of a megabyte would be
 * copied twice into new memory (joined to be measured, then encoded to be written); the
 * pieces are encoded once: 10,000 log lines take 13–19 ms here instead of 24–31 ms.
 */
export function sendJsonBuffer(reply: FastifyReply, pieces: readonly string[]): FastifyReply {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return reply.type('application/json; charset=utf-8').send(bytes);
}

/** A JSON text put into an answer as it is (a stored config, say: valid JSON already, never parsed). */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * The JSON text of an object whose members may be RawJson, as parts whose concatenation is
 * the text: each RawJson text is a part of its own, never copied into a larger string.
 * Undefined members are left out.
 */
export function objectParts(obj: Record<string, unknown>): string[] {
  const parts: string[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (value instanceof RawJson) {
      parts.push(text, value.text);
      text = '';
    } else {
      text += JSON.stringify(value);
    }
  }
  parts.push(`${text}}`);
  return parts;
}

/**
 * Members for jsonStream: each item of the batches as the parts (objectParts) of view(item,
 * its position over all batches), taking each batch only when the one before is used.
 */
export async function* objectMembers<T>(
  batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  view: (item: T, index: number) => Record<string, unknown>,
): AsyncGenerator<string[]> {
  let index = 0;
  for await (const batch of batches) for (const item of batch) yield objectParts(view(item, index++));
}

/** Where to cut a text near `at` without splitting a surrogate pair. */
const cutAt = (text: string, at: number): number => {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at + 1 : at;
};

/**
 * Parts of text as pieces of PIECE_CHARS to twice that: small parts are joined, a large one
 * is sent as slices of itself (slices of a string share its memory), never copied whole.
 */
async function* piecesOf(parts: AsyncIterable<string>): AsyncGenerator<string> {
  let piece = '';
  for await (const part of parts) {
    if (part.length < PIECE_CHARS) {
      piece += part;
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = '';
      }
      continue;
    }
    if (piece !== '') yield piece;
    piece = '';
    for (let at = 0; at < part.length;) {
      const cut = cutAt(part, Math.min(part.length, at + PIECE_CHARS));
      yield part.slice(at, cut);
      at = cut;
    }
  }
  if (piece !== '') yield piece;
}

const hasMembers = (obj: Record<string, unknown>): boolean => Object.values(obj).some((v) => v !== undefined);

/** The parts of `{...head, [key]: [members], ...tail}`, members pulled one at a time. */
async function* jsonParts(
  head: Record<string, unknown>,
  key: string,
  members: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  tail: Record<string, unknown>,
): AsyncGenerator<string> {
  const open = objectParts(head);
  yield* open.slice(0, -1);
  yield `${open.at(-1)!.slice(0, -1)}${hasMembers(head) ? ',' : ''}${JSON.stringify(key)}:[`;
  let first = true;
  for await (const member of members) {
    if (!first) yield ',';
    first = false;
    if (typeof member === 'string') yield member;
    else yield* member;
  }
  const close = objectParts(tail);
  yield `]${hasMembers(tail) ? ',' : ''}${close[0]!.slice(1)}`;
  yield* close.slice(1);
}

/**
 * Yields the JSON text of `{...head, [key]: [members], ...tail}` in pieces of about
 * PIECE_CHARS, pulling the members (each one item's JSON text, whole or as parts, e.g. from
 * objectParts) only as pieces are taken, so a stream of it holds about one member at a time.
 * Head and tail may hold RawJson members (see objectParts). Head, members and tail must
 * already be exactly the response schema's shape.
 */
export function jsonStream(
  head: Record<string, unknown>,
  key: string,
  members: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  tail: Record<string, unknown> = {},
): AsyncGenerator<string> {
  return piecesOf(jsonParts(head, key, members, tail));
}

/**
 * Sends JSON text pieces as a chunked stream with a JSON content type, taking the next piece
 * only when the socket has room (about PIECE_CHARS buffered); no response serializer runs. A
 * closed connection destroys the stream, which returns the pieces' generator (and what it
 * reads). A piece that throws ends the answer cut short (the status is sent already), so
 * check what can fail, e.g. a read's bound, before the first piece.
 */
export function sendJsonStream(reply: FastifyReply, pieces: AsyncIterable<string>): FastifyReply {
  const stream = Readable.from(pieces, { objectMode: false, highWaterMark: PIECE_CHARS });
  return reply.type('application/json; charset=utf-8').send(stream);
}
