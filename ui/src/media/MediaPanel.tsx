import { useMemo } from 'react';
import { useMediaFiles } from '../api/media-queries';
import type { RunDetails } from '@server/api/schemas/runs';
import { Empty, ErrorState, Loading } from '../components/States';
import { FollowChartStepToggle } from './FollowChartStepToggle';
import { MediaGroupView } from './MediaGroupView';
import { mediaGroups } from './media-model';
import './media.css';

/**
 * The run's Media tab: every IMAGE, AUDIO and VIDEO log name with a step slider over the
 * steps it has files at (images as a gallery with a large view on click; audio and video as
 * players). Other files are in the Files tab.
 */
export function MediaPanel({ run }: { run: RunDetails }) {
  const files = useMediaFiles(run.id, run.projectName, run.status === 'RUNNING');
  const groups = useMemo(() => mediaGroups(run.logNames, files.data ?? []), [run.logNames, files.data]);

  if (files.isPending) return <Loading label="Loading media…" />;
  if (files.isError) return <ErrorState error={files.error} onRetry={() => void files.refetch()} />;
  if (groups.length === 0) {
    return <Empty title="No media">This run has logged no images, audio or video.</Empty>;
  }
  return (
    <div className="media-panel">
      <div className="media-toolbar">
        <FollowChartStepToggle />
      </div>
      {groups.map((g) => (
        <MediaGroupView key={g.logName} group={g} />
      ))}
    </div>
  );
}
