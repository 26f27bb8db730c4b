/**
 * The metric a leaderboard or a statistics table opens on when the person has not chosen one,
 * and the direction that puts the best runs first.
 */

/** System metrics (`sys/cpu.pct`, …) say how the machine did, not how the model did. */
const isSystem = (name: string): boolean => name.startsWith('sys/');
const isLoss = (name: string): boolean => /loss|err/i.test(name);
const isScore = (name: string): boolean => /acc|f1|auc|precision|recall|score|reward|bleu|rouge|iou|map\b/i.test(name);

/**
 * Returns the first metric (in the given order) whose name contains "loss", else the first
 * that is not a system metric, else the first one; '' for no names.
 */
export function defaultMetric(names: readonly string[]): string {
  const own = names.filter((n) => !isSystem(n));
  return own.find((n) => /loss/i.test(n)) ?? own[0] ?? names[0] ?? '';
}

/**
 * Returns which extreme of a metric is its best value: 'min' for a loss or an error, 'max'
 * for a score such as accuracy, undefined for anything else (a learning rate, a system metric).
 */
export function bestExtreme(name: string): 'min' | 'max' | undefined {
  if (isSystem(name)) return undefined;
  if (isLoss(name)) return 'min';
  return isScore(name) ? 'max' : undefined;
}

/** Returns 'DESC' (highest first) for a score such as accuracy, else 'ASC' (lowest first, for a loss or an error). */
export function defaultDirection(name: string): 'ASC' | 'DESC' {
  return !isLoss(name) && isScore(name) ? 'DESC' : 'ASC';
}
