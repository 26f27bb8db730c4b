/**
 * Lone surrogates: a UTF-16 code unit in U+D800–U+DFFF without its partner. JSON can carry
 * one as a `\uD800` escape, but no engine stores it (SQLite and PostgreSQL turn it into
 * U+FFFD), so names, keys and JSON values holding one are refused and free text has it
 * replaced (see RELIABILITY.md).
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** The rule, as the end of a 400's sentence: `<field> must not contain …`. */
export const LONE_SURROGATE_RULE = 'a lone surrogate (an unpaired \\uD800-\\uDFFF escape); text must be valid Unicode';

/** True when the text holds a lone surrogate, so it cannot be stored as it is. */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** Returns the text with every lone surrogate replaced by U+FFFD (for free text only). */
export const replaceLoneSurrogates = (text: string): string =>
  hasLoneSurrogate(text) ? text.replace(LONE_SURROGATES, '\ufffd') : text;
