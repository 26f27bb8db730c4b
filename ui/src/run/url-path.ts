/**
 * The path (and query) of a page URL the API hands out (`url`, `comparisonUrl`), so the
 * dashboard can navigate to it in place; the API builds them from its public URL, whose
 * origin may differ from the one the page was opened at.
 */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}
