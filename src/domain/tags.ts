/** Tags without repeats, first occurrence first. */
export const uniqueTags = (tags: readonly string[]): string[] => [...new Set(tags)];
