import type { RunDetails } from '../api/run-queries';
import { Empty } from '../components/States';

/** The run's Data tab (being built). */
export function DataPanel({ run }: { run: RunDetails }) {
  return <Empty title="Data">Not built yet for {run.name}.</Empty>;
}
