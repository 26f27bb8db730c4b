import { useId, useMemo, useState, type ReactNode } from 'react';
import type { Json } from '@server/api/schemas/json';
import { Empty } from '../components/States';
import { childKey, entriesOf, isContainer, leafText, searchTree, type JsonContainer } from './json-tree-model';
import './json-tree.css';

/** Children shown before "Show more": arrays are cut sooner than objects. */
const FIRST = { array: 20, object: 100 };
const MORE = 100;
const NO_OVERRIDES: ReadonlyMap<string, boolean> = new Map();

/** `text` with every case-insensitive occurrence of `query` marked. */
function Highlight({ text, query }: { text: string; query: string }) {
  if (query === '') return <>{text}</>;
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const parts: ReactNode[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0 && parts.length < 200; i = lower.indexOf(q, at)) {
    if (i > at) parts.push(text.slice(at, i));
    parts.push(<mark key={i}>{text.slice(i, i + q.length)}</mark>);
    at = i + q.length;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

const leafClass = (value: Json): string =>
  value === null ? 'json-null' : typeof value === 'string' ? 'json-string' : `json-${typeof value}`;

const summaryOf = (value: JsonContainer): string => {
  const n = Array.isArray(value) ? value.length : Object.keys(value).length;
  return Array.isArray(value) ? `[${n} ${n === 1 ? 'item' : 'items'}]` : `{${n} ${n === 1 ? 'key' : 'keys'}}`;
};

/**
 * A JSON value (config, system metadata) as a collapsible tree with a search box labelled
 * "Search <name>": objects and arrays open with buttons that carry aria-expanded, long
 * arrays show their first items and a "Show more" button, a search opens the way to
 * every hit and hides the rest.
 */
export function JsonTree({ value, name }: { value: Json; name: string }) {
  const inputId = useId();
  const [query, setQuery] = useState('');
  const q = query.trim();
  const [overrides, setOverrides] = useState<{ q: string; open: Map<string, boolean> }>({ q: '', open: new Map() });
  const [shown, setShown] = useState<Map<string, number>>(new Map());
  const search = useMemo(() => (q !== '' && isContainer(value) ? searchTree(value, q) : undefined), [value, q]);
  const opened = overrides.q === q ? overrides.open : NO_OVERRIDES;

  if (value === null || (isContainer(value) && entriesOf(value).length === 0)) {
    return <Empty title={`No ${name}`}>This run has no {name} recorded.</Empty>;
  }
  if (!isContainer(value)) {
    return <p className={`mono ${leafClass(value)}`}>{leafText(value)}</p>;
  }

  const isOpen = (key: string, depth: number, size: number): boolean =>
    opened.get(key) ?? (search ? search.open.has(key) : depth === 0 && size <= 20);
  const toggle = (key: string, now: boolean) =>
    setOverrides((prev) => {
      const open = new Map(prev.q === q ? prev.open : []);
      open.set(key, !now);
      return { q, open };
    });

  const renderChildren = (container: JsonContainer, parentKey: string, depth: number): ReactNode => {
    const all = entriesOf(container);
    const entries = search ? all.filter(([k]) => search.visible.has(childKey(parentKey, k))) : all;
    const limit = shown.get(parentKey) ?? (Array.isArray(container) ? FIRST.array : FIRST.object);
    const rest = entries.length - limit;
    return (
      <ul className="json-tree-level">
        {entries.slice(0, limit).map(([k, v]) => {
          const key = childKey(parentKey, k);
          if (!isContainer(v)) {
            return (
              <li key={k} className="json-leaf">
                <span className="json-key">
                  <Highlight text={k} query={q} />
                </span>
                <span className="json-colon">: </span>
                <span className={leafClass(v)}>
                  <Highlight text={leafText(v)} query={q} />
                </span>
              </li>
            );
          }
          const size = entriesOf(v).length;
          const open = size > 0 && isOpen(key, depth, size);
          return (
            <li key={k} className="json-branch">
              <button
                type="button"
                className="json-toggle"
                aria-expanded={open}
                disabled={size === 0}
                onClick={() => toggle(key, open)}
              >
                <span className="json-caret" aria-hidden="true">
                  {open ? '▾' : '▸'}
                </span>
                <span className="json-key">
                  <Highlight text={k} query={q} />
                </span>
              </button>
              <span className="muted json-summary"> {summaryOf(v)}</span>
              {open && renderChildren(v, key, depth + 1)}
            </li>
          );
        })}
        {rest > 0 && (
          <li>
            <button
              type="button"
              className="secondary json-more"
              onClick={() => setShown((prev) => new Map(prev).set(parentKey, limit + MORE))}
            >
              Show more ({rest} more)
            </button>
          </li>
        )}
      </ul>
    );
  };

  return (
    <div className="json-tree">
      <label className="visually-hidden" htmlFor={inputId}>
        Search {name}
      </label>
      <input
        id={inputId}
        type="search"
        className="json-search"
        placeholder={`Search ${name}`}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {search && (
        <p className="muted json-hits" role="status">
          {search.hits === 0
            ? `No keys or values match “${q}”`
            : `${search.hits} ${search.hits === 1 ? 'match' : 'matches'}`}
        </p>
      )}
      {(!search || search.hits > 0) && <div className="json-tree-body mono">{renderChildren(value, '', 0)}</div>}
    </div>
  );
}
