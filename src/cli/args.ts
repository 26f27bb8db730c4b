import { ConfigError } from '../config.js';

/** The value after `--name` in args, or undefined when absent; throws ConfigError when the value is missing. */
export function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
  return value;
}

/** The value after `--name`; throws ConfigError naming the command's usage when absent. */
export function required(args: readonly string[], name: string, usage: string): string {
  const value = option(args, name);
  if (value === undefined) throw new ConfigError(`--${name} is required: ${usage}`);
  return value;
}
