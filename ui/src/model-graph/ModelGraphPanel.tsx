import { useMemo } from 'react';
import { useModelGraph } from '../api/graph-queries';
import type { RunDetails } from '@server/api/schemas/runs';
import { Empty, ErrorState, Loading } from '../components/States';
import { buildGraphTree, formatCount } from './graph-tree';
import { GraphTree } from './GraphTree';
import './model-graph.css';

/**
 * The run's Model graph tab: the graph from `GET /api/runs/modelGraph` as a collapsible,
 * searchable module tree with node types, shapes and parameter counts. The API's 404 (no
 * graph) is the empty state, with how pluto logs one.
 */
export function ModelGraphPanel({ run }: { run: RunDetails }) {
  const query = useModelGraph(run.id);
  const tree = useMemo(() => (query.data ? buildGraphTree(query.data.nodes) : null), [query.data]);
  if (query.isPending) return <Loading label="Loading the model graph…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!tree || tree.count === 0)
    return (
      <Empty title="No model graph logged">
        <p className="muted">
          pluto sends a PyTorch model&apos;s module tree when the training script calls <code>pluto.watch(model)</code>{' '}
          after <code>pluto.init(…)</code>; it arrives through <code>POST /api/runs/modelGraph/create</code> and shows
          here.
        </p>
      </Empty>
    );
  return (
    <section className="card model-graph" aria-labelledby="model-graph-title">
      <header className="model-graph-head">
        <h3 id="model-graph-title">Model graph</h3>
        <span className="tag">{query.data?.format}</span>
        <span className="muted">
          {tree.count} nodes{tree.total > 0 ? ` · ${formatCount(tree.total)} parameters` : ''}
        </span>
      </header>
      <GraphTree tree={tree} />
    </section>
  );
}
