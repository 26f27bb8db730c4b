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

/**
 * Bidirectional formatting controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069):
 * invisible, they reorder the text shown around them (`a\u202Eb` reads backwards), so a name
 * holding one can pass for another.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The rule, as the end of a 400's sentence: `<field> must not contain …`. */
export const BIDI_CONTROL_RULE =
  'bidirectional control characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069)';

/** True when the text holds a bidirectional control, which names must not. */
export const hasBidiControl = (text: string): boolean => BIDI_CONTROL.test(text);
