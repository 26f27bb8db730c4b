import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { formatCount, type GraphNode, type GraphTree as Tree } from './graph-tree';

/** Ancestors of every node whose full name contains the text (case-insensitive), and the matches. */
function search(tree: Tree, needle: string): { matches: Set<string>; reveal: Set<string> } {
  const matches = new Set<string>();
  const reveal = new Set<string>();
  if (!needle) return { matches, reveal };
  for (const node of tree.byId.values()) {
    if (!node.id.toLowerCase().includes(needle)) continue;
    matches.add(node.id);
    reveal.add(node.id);
    for (let p = node.parent; p && !reveal.has(p.id); p = p.parent) reveal.add(p.id);
  }
  return { matches, reveal };
}

function highlight(text: string, needle: string): ReactNode {
  if (!needle) return text;
  const at = text.toLowerCase().indexOf(needle);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + needle.length)}</mark>
      {text.slice(at + needle.length)}
    </>
  );
}

/**
 * The module tree as an ARIA tree: Up/Down move between visible nodes, Right expands (or
 * moves to the first child), Left collapses (or moves to the parent), Home/End, Enter or
 * Space toggles. A search box filters by name and expands the ancestors of matches.
 */
export function GraphTree({ tree }: { tree: Tree }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set(tree.roots.length === 1 ? [tree.roots[0]!.id] : []),
  );
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState<string | null>(tree.roots[0]?.id ?? null);
  const refs = useRef(new Map<string, HTMLLIElement>());
  const searchId = useId();
  const needle = query.trim().toLowerCase();
  const { matches, reveal } = useMemo(() => search(tree, needle), [tree, needle]);
  const visible = (n: GraphNode) => !needle || reveal.has(n.id);

  const onQuery = (text: string) => {
    setQuery(text);
    const found = search(tree, text.trim().toLowerCase());
    if (found.matches.size === 0) return;
    const open = new Set(expanded);
    for (const id of found.reveal) if (!found.matches.has(id)) open.add(id);
    setExpanded(open);
    const first = [...found.matches][0];
    if (first) setFocused(first);
  };

  const flat = useMemo(() => {
    const out: GraphNode[] = [];
    const walk = (nodes: GraphNode[]) => {
      for (const n of nodes) {
        if (needle && !reveal.has(n.id)) continue;
        out.push(n);
        if (expanded.has(n.id)) walk(n.children);
      }
    };
    walk(tree.roots);
    return out;
  }, [tree, expanded, needle, reveal]);

  const toggle = (id: string, open?: boolean) => {
    const next = new Set(expanded);
    if (open ?? !next.has(id)) next.add(id);
    else next.delete(id);
    setExpanded(next);
  };

  const focus = (id: string) => {
    setFocused(id);
    refs.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const at = flat.findIndex((n) => refs.current.get(n.id) === event.target);
    if (at < 0) return;
    const node = flat[at]!;
    const kids = node.children.filter(visible);
    const open = expanded.has(node.id);
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        if (at < flat.length - 1) focus(flat[at + 1]!.id);
        break;
      case 'ArrowUp':
        if (at > 0) focus(flat[at - 1]!.id);
        break;
      case 'ArrowRight':
        if (kids.length > 0 && !open) toggle(node.id, true);
        else if (kids.length > 0) focus(kids[0]!.id);
        break;
      case 'ArrowLeft':
        if (kids.length > 0 && open) toggle(node.id, false);
        else if (node.parent) focus(node.parent.id);
        break;
      case 'Home':
        if (flat[0]) focus(flat[0].id);
        break;
      case 'End':
        if (flat.length > 0) focus(flat[flat.length - 1]!.id);
        break;
      case 'Enter':
      case ' ':
        if (kids.length > 0) toggle(node.id);
        break;
      default:
        handled = false;
    }
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const focusTarget = flat.some((n) => n.id === focused) ? focused : (flat[0]?.id ?? null);

  const item = (node: GraphNode): ReactNode => {
    const kids = node.children.filter(visible);
    const open = expanded.has(node.id) && kids.length > 0;
    const rowId = `${searchId}-row-${node.id}`;
    return (
      <li
        key={node.id}
        ref={(el) => {
          if (el) refs.current.set(node.id, el);
          else refs.current.delete(node.id);
        }}
        role="treeitem"
        aria-level={node.depth + 1}
        aria-expanded={kids.length > 0 ? open : undefined}
        aria-selected={node.id === focusTarget}
        aria-labelledby={rowId}
        tabIndex={node.id === focusTarget ? 0 : -1}
        className="graph-item"
        onFocus={(e) => {
          if (e.target === e.currentTarget) setFocused(node.id);
        }}
      >
        <div
          className={`graph-row${matches.has(node.id) ? ' graph-match' : ''}`}
          style={{ paddingInlineStart: `${node.depth * 1.1 + 0.25}rem` }}
          onClick={(e) => {
            e.stopPropagation();
            focus(node.id);
            if (kids.length > 0) toggle(node.id);
          }}
        >
          <span className="graph-chevron" aria-hidden="true">
            {kids.length > 0 ? (open ? '▾' : '▸') : '·'}
          </span>
          <span id={rowId} className="graph-text">
            <span className="graph-name mono" title={node.id}>
              {highlight(node.label, needle)}
            </span>
            {node.type && <span className="tag graph-type">{node.type}</span>}
            {node.shapes.map((s) => (
              <span key={s} className="graph-shape mono muted">
                {s}
              </span>
            ))}
            {node.total > 0 && (
              <span className="graph-params muted">
                {node.children.length > 0 && node.total !== node.params
                  ? `${formatCount(node.total)} params in subtree`
                  : `${formatCount(node.total)} params`}
              </span>
            )}
            {node.edges > 0 && (
              <span className="graph-edges muted">
                {node.edges} edge{node.edges === 1 ? '' : 's'}
              </span>
            )}
          </span>
        </div>
        {open && (
          <ul role="group" className="graph-group">
            {kids.map(item)}
          </ul>
        )}
      </li>
    );
  };

  const roots = tree.roots.filter(visible);
  return (
    <div className="graph-tree">
      <div className="graph-toolbar">
        <label htmlFor={searchId}>Search graph</label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder="Module name, e.g. attn"
          onChange={(e) => onQuery(e.target.value)}
        />
        <span className="muted" aria-live="polite">
          {needle ? `${matches.size} match${matches.size === 1 ? '' : 'es'}` : `${tree.count} nodes`}
        </span>
        <button type="button" className="secondary" onClick={() => setExpanded(new Set(tree.byId.keys()))}>
          Expand all
        </button>
        <button type="button" className="secondary" onClick={() => setExpanded(new Set())}>
          Collapse all
        </button>
      </div>
      {roots.length === 0 ? (
        <p className="muted">No node name contains “{query.trim()}”.</p>
      ) : (
        <div className="scroll-x">
          <ul role="tree" aria-label="Model graph" className="graph-list" onKeyDown={onKeyDown}>
            {roots.map(item)}
          </ul>
        </div>
      )}
    </div>
  );
}
