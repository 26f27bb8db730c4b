import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { RUN_PAGE_SIZE, type RunPages } from '../api/run-list-queries';
import { RowLook, type RowLooks } from '../workspace/RowLook';
import type { TableColumn } from './table-columns';
import { useNow } from './useNow';

const ROW_HEIGHT = 37;
const SELECT_WIDTH = 44;
/** The selection column with each run's swatch and charts toggle beside its box. */
const SELECT_LOOK_WIDTH = 96;

/** `{field, descending}` of a `sort` value. */
export function parseSortText(sort: string): { field: string; descending: boolean } {
  const descending = sort.startsWith('-');
  return { field: sort.replace(/^[-+]/, ''), descending };
}

/**
 * The runs as a virtualised table: only the rows in view are in the page, and it reports
 * which 200-row pages those are so that only they are fetched. Header buttons sort (the
 * API sorts, so every row is in order, not just the loaded ones); a checkbox selects a run,
 * the header's box every loaded run. The boxes and the pinned column (Name) stay at the left
 * while the other columns scroll sideways inside the table's box.
 */
export function RunsGrid({
  data,
  columns,
  sort,
  resetKey,
  selected,
  allState,
  onSort,
  onToggle,
  onToggleAll,
  onRemoveColumn,
  onPagesInView,
  looks,
}: {
  data: RunPages;
  columns: TableColumn[];
  sort: string;
  /** Changes when the rows' order or filter changes: the view returns to the top. */
  resetKey: string;
  selected: ReadonlySet<number>;
  /** How many of the loaded rows are selected: the header box's state. */
  allState: 'none' | 'some' | 'all';
  onSort: (sort: string) => void;
  /** A row's box was ticked or cleared; `shift` when shift-clicked (a range from the last one clicked). */
  onToggle: (index: number, on: boolean, shift: boolean) => void;
  /** The header box: select or clear every loaded row. */
  onToggleAll: (on: boolean) => void;
  onRemoveColumn: (column: TableColumn) => void;
  onPagesInView: (pages: number[]) => void;
  /** Each run's colour swatch and charts toggle, and hover to highlight it (the project workspace). */
  looks?: RowLooks;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = data.total ?? 0;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [resetKey, virtualizer]);

  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const firstPage = Math.floor(first / RUN_PAGE_SIZE);
  const lastPage = Math.floor(last / RUN_PAGE_SIZE);
  useEffect(() => {
    const pages: number[] = [];
    for (let p = firstPage; p <= lastPage; p++) pages.push(p);
    onPagesInView(pages);
  }, [firstPage, lastPage, onPagesInView]);

  const anyRunning = items.some((i) => data.rowAt(i.index)?.status === 'RUNNING');
  const now = useNow(anyRunning);
  const { field, descending } = parseSortText(sort);
  // The boxes (and the looks) stay at the left; a pinned column sits just right of them.
  const lead = looks ? SELECT_LOOK_WIDTH : SELECT_WIDTH;
  const pinStyle = (c: TableColumn) => (c.pinned ? { left: lead } : undefined);
  const width = useMemo(() => lead + columns.reduce((n, c) => n + c.width, 0), [columns, lead]);
  const pinned = columns.find((c) => c.pinned);
  // The pinned column is as wide as --pinned-width says (narrower on a phone, in CSS).
  const tableWidth = pinned ? `calc(${width - pinned.width}px + var(--pinned-width, ${pinned.width}px))` : width;
  const cellClass = (c: TableColumn) =>
    [c.numeric ? 'num' : '', c.pinned ? 'pin pin-edge' : ''].filter(Boolean).join(' ') || undefined;
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const span = columns.length + 1;

  return (
    <div
      className="runs-scroll"
      ref={scrollRef}
      role="region"
      aria-label="Runs table"
      aria-busy={data.isFetching}
      tabIndex={0}
    >
      <table className="runs-table" style={{ width: tableWidth }} aria-rowcount={count + 1}>
        <colgroup>
          <col style={{ width: lead }} />
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.pinned ? `var(--pinned-width, ${c.width}px)` : c.width }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className={looks ? 'select-cell pin with-look' : 'select-cell pin'}>
              <input
                type="checkbox"
                aria-label="Select all runs"
                title="Select every loaded run that matches the filters"
                checked={allState === 'all'}
                ref={(box) => {
                  if (box) box.indeterminate = allState === 'some';
                }}
                disabled={count === 0}
                onChange={(e) => onToggleAll(e.target.checked)}
              />
            </th>
            {columns.map((c) => {
              const active = c.sortField !== undefined && c.sortField === field;
              const ariaSort = active ? (descending ? 'descending' : 'ascending') : c.sortField ? 'none' : undefined;
              return (
                <th key={c.id} scope="col" aria-sort={ariaSort} className={cellClass(c)} style={pinStyle(c)}>
                  <div className="th-inner">
                    {c.sortField ? (
                      <button
                        type="button"
                        className="th-sort"
                        title={`Sort by ${c.label}`}
                        onClick={() => onSort(active && !descending ? `-${c.sortField}` : c.sortField!)}
                      >
                        <span className="th-label">{c.label}</span>
                        <span className="sort-mark" aria-hidden="true">
                          {active ? (descending ? '▼' : '▲') : '↕'}
                        </span>
                      </button>
                    ) : (
                      <span className="th-label" title={c.note}>
                        {c.label}
                      </span>
                    )}
                    {c.extra && (
                      <button
                        type="button"
                        className="th-remove"
                        aria-label={`Remove column ${c.label}`}
                        title={`Remove column ${c.label}`}
                        onClick={() => onRemoveColumn(c)}
                      >
                        ×
                      </button>
                    )}
                  </div>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={data.isPlaceholder ? 'stale' : undefined} onMouseLeave={() => looks?.onHover(null)}>
          {padTop > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={span} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((item) => {
            const run = data.rowAt(item.index);
            if (!run) {
              return (
                <tr key={`pending-${item.index}`} aria-rowindex={item.index + 2} className="pending-row">
                  <td colSpan={span}>
                    <span className="skeleton" aria-hidden="true" />
                    <span className="visually-hidden">Loading run {item.index + 1}</span>
                  </td>
                </tr>
              );
            }
            const isSelected = selected.has(run.id);
            return (
              <tr
                key={run.id}
                aria-rowindex={item.index + 2}
                aria-selected={isSelected}
                className={
                  [isSelected ? 'selected' : '', looks?.highlight === run.id ? 'highlighted' : ''].join(' ').trim() ||
                  undefined
                }
                onMouseEnter={looks ? () => looks.onHover(run.id) : undefined}
              >
                <td className={looks ? 'select-cell pin with-look' : 'select-cell pin'}>
                  <input
                    type="checkbox"
                    checked={isSelected}
                    aria-label={`Select run ${run.name}`}
                    // React reports a checkbox's change from its click, so the event knows about Shift.
                    onChange={(e) =>
                      onToggle(item.index, e.target.checked, (e.nativeEvent as MouseEvent).shiftKey === true)
                    }
                  />
                  {looks && <RowLook run={run} looks={looks} />}
                </td>
                {columns.map((c) => (
                  <td key={c.id} className={cellClass(c)} style={pinStyle(c)} title={c.title?.(run, now)}>
                    {c.cell(run, now)}
                  </td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={span} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
