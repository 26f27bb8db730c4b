import type { z } from 'zod';
import type { Ctx } from '../services/context.js';
import type { ToolAccess } from './tool-kit.js';

/**
 * One MCP tool: its name, what it is for, the access it needs, its input shape and output
 * schema, and what it answers (an object matching the output schema; throws AppError).
 * `budget` is the most bytes of JSON the answer may hold (config.mcpMaxBytes).
 */
export interface ToolSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  description: string;
  access: ToolAccess;
  input: S;
  output: z.ZodType;
  run(ctx: Ctx, args: z.infer<z.ZodObject<S>>, budget: number): Promise<Record<string, unknown>>;
}

/** Declares a tool, keeping its argument types (the table holds them widened). */
export const tool = <S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec => spec as unknown as ToolSpec;
