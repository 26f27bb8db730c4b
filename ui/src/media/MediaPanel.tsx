import type { RunDetails } from '../api/run-queries';
import { Empty } from '../components/States';

/** The run's Media tab (being built). */
export function MediaPanel({ run }: { run: RunDetails }) {
  return <Empty title="Media">Not built yet for {run.name}.</Empty>;
}
