/** Where a system name starts: the pluto client logs CPU, memory, GPU, disk and network under `sys/`. */
export const SYSTEM_PREFIX = 'sys/';

/** True for a system series' name (sampled by the clock, every sample at step 0 as pluto sends them). */
export const isSystemName = (logName: string): boolean => logName.startsWith(SYSTEM_PREFIX);
