import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SavedViewHead, SavedViewList } from '@server/api/schemas/saved-views';
import { savedViewQuery, savedViewsQuery } from '../api/saved-view-queries';
import { applyViewState, sameViewState, toViewState, type ViewState } from './saved-view-state';
import type { WorkspaceActions } from './useWorkspace';
import type { WorkspaceLayouts } from './workspace-state';

/** What the Views control and the page need of the project's saved views. */
export interface WorkspaceViews {
  /** The project's views (default first), undefined until they have loaded. */
  views: SavedViewHead[] | undefined;
  loading: boolean;
  error: Error | null;
  /** The view last applied or saved on this page, while it still exists. */
  active: SavedViewHead | undefined;
  /** Whether the workspace differs from the active view's saved state. */
  modified: boolean;
  /** True while a bare project URL waits for its default view (the page shows a placeholder). */
  opening: boolean;
  /** The workspace's state now, as a view would save it. */
  current: ViewState;
  /** Fetches a view's state and applies it (a new history entry); rejects with the API's error. */
  apply: (viewId: number) => Promise<void>;
  /** Marks a view as the one the workspace shows (after saving or updating it). */
  setActiveId: (viewId: number | null) => void;
}

const viewsOf = (answer: SavedViewList) => answer.views;

const storageKey = (org: string, project: string) => `stepwise:view:${org}/${project}`;

function readActive(key: string): number | null {
  try {
    const id = Number(sessionStorage.getItem(key));
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

function writeActive(key: string, id: number | null): void {
  try {
    if (id === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, String(id));
  } catch {
    // Storage denied: the active view lasts as long as the page.
  }
}

/**
 * The project's saved views for the workspace: the list, which one is active (kept in this
 * tab's session storage per project, so Back from a run page or a reload still names it) and
 * whether the workspace has moved away from it, and `apply`. When the page opens on the
 * project's bare URL (no parameters) it applies the project's default view, replacing the
 * history entry; a URL with parameters (a shared link) is shown as it is. `known` says whether
 * the project exists (undefined: not known yet; false, or another organization's: nothing is
 * asked).
 */
export function useWorkspaceViews(
  org: string,
  project: string,
  known: boolean | undefined,
  layouts: WorkspaceLayouts,
  setLayout: WorkspaceActions['setLayout'],
): WorkspaceViews {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const enabled = known === true;
  const list = useQuery({ ...savedViewsQuery(project), enabled, select: viewsOf });
  const key = storageKey(org, project);

  // Per project: the view shown, and whether the page opened bare and still waits for its default.
  const [page, setPage] = useState(() => ({ key, bare: params.size === 0, activeId: readActive(key) }));
  let current = page;
  if (page.key !== key) {
    current = { key, bare: params.size === 0, activeId: readActive(key) };
    setPage(current);
  }
  const setActiveId = useCallback(
    (activeId: number | null) => {
      writeActive(key, activeId);
      setPage((p) => (p.key === key ? { ...p, bare: false, activeId } : p));
    },
    [key],
  );
  const latestParams = useRef(params);
  latestParams.current = params;

  const applyState = useCallback(
    (state: unknown, replace: boolean) => {
      const next = applyViewState(state, latestParams.current);
      setParams(next.params, { replace });
      setLayout('metrics', next.layouts.metrics);
      setLayout('system', next.layouts.system);
    },
    [setParams, setLayout],
  );

  // A bare URL: the default view once the list says which (none: the page as it is).
  const waiting = current.bare && known !== false;
  const views = list.data;
  // undefined until the list has answered (or failed); null: the project has no default.
  const defaultId = list.isPending ? undefined : (views?.find((v) => v.isDefault)?.id ?? null);
  useEffect(() => {
    if (!waiting || !enabled || defaultId === undefined) return;
    if (defaultId === null) {
      setActiveId(null);
      return;
    }
    let cancelled = false;
    client
      .fetchQuery(savedViewQuery(defaultId))
      .then((view) => {
        if (cancelled) return;
        if (latestParams.current.size === 0) applyState(view.state, true);
        setActiveId(view.id);
      })
      .catch(() => {
        if (!cancelled) setActiveId(null);
      });
    return () => {
      cancelled = true;
    };
  }, [waiting, enabled, defaultId, client, applyState, setActiveId]);

  const apply = useCallback(
    async (viewId: number) => {
      const view = await client.fetchQuery({ ...savedViewQuery(viewId), staleTime: 0 });
      applyState(view.state, false);
      setActiveId(view.id);
    },
    [client, applyState, setActiveId],
  );

  const active = current.activeId === null ? undefined : views?.find((v) => v.id === current.activeId);
  const saved = useQuery({ ...savedViewQuery(active?.id ?? 0), enabled: active !== undefined });
  const state = useMemo(() => toViewState(params, layouts), [params, layouts]);
  const modified = saved.data !== undefined && !sameViewState(state, saved.data.state);

  return {
    views,
    loading: enabled && list.isPending,
    error: list.error,
    active,
    modified,
    opening: waiting,
    current: state,
    apply,
    setActiveId,
  };
}
