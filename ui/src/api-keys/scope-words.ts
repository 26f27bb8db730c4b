/** What each OAuth scope lets a tool client do, in words (the consent page, connected apps). */
export const SCOPE_WORDS: Record<string, string> = {
  'runs:read': 'Read projects, runs, metrics, logs and files of the organization',
  'runs:write': 'Change runs: tags and notes, and stop running runs',
};

/** The words of a scope (the scope itself when it has none). */
export const scopeWords = (scope: string): string => SCOPE_WORDS[scope] ?? scope;
