import { Type } from '@sinclair/typebox';

/** A JSON value: what a stored config, metadata or payload is once parsed. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Any JSON value (response side of config and friends); its type is Json. */
export const JsonValue = Type.Unsafe<Json>(Type.Unknown());
