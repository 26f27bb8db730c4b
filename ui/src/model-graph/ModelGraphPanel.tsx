import type { RunDetails } from '../api/run-queries';
import { Empty } from '../components/States';

/** The run's Model graph tab (being built). */
export function ModelGraphPanel({ run }: { run: RunDetails }) {
  return <Empty title="Model graph">Not built yet for {run.name}.</Empty>;
}
