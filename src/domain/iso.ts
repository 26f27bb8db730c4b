/** ISO 8601 UTC with milliseconds, the one time format of every response (years 0000–9999 on the fast path). */
export function iso(ms: number): string {
  // Pages of log lines and metric points share their second: format it once, add the ms.
  if (!(ms >= 0 && ms < YEAR_10000)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const milli = ms - second * 1000;
  return `${lastPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

const YEAR_10000 = 253_402_300_800_000;
let lastSecond = NaN;
let lastPrefix = '';
