/** The group of a log name: the part before its last `/`, or "" when there is none. */
export function logGroupOf(logName: string): string {
  const i = logName.lastIndexOf('/');
  return i < 0 ? '' : logName.slice(0, i);
}
