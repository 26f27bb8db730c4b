import type { RunDetails } from '../api/run-queries';
import { Empty } from '../components/States';

/** The run's System tab (being built). */
export function SystemPanel({ run }: { run: RunDetails }) {
  return <Empty title="System">Not built yet for {run.name}.</Empty>;
}
