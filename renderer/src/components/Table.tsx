// A dense data table: sortable headers (buttons with aria-sort), right-aligned numeric columns, an
// optional selected row. Keyboard selection is up to the screen (the quote screen moves it with ↑/↓).
import { Fragment, type KeyboardEvent, type ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** Makes the header a button that calls onSort(key). */
  sortable?: boolean;
  width?: string;
  className?: string;
}

export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

export interface TableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  caption?: ReactNode;
  sort?: SortState | null;
  onSort?: (key: string) => void;
  selectedKey?: string | null;
  onRowClick?: (row: T) => void;
  onRowKeyDown?: (row: T, e: KeyboardEvent<HTMLTableRowElement>) => void;
  rowProps?: (row: T) => Record<string, string | undefined>;
  /** Content of a full-width row under a row (the Quote screen's pickup points, #21); null: none. */
  rowAfter?: (row: T) => ReactNode;
  'data-testid'?: string;
  className?: string;
}

export function Table<T>(props: TableProps<T>): ReactNode {
  const { columns, rows, rowKey, sort, onSort, selectedKey, onRowClick } = props;
  return (
    <div className="table-wrap">
      <table
        className={['table', props.className ?? ''].filter(Boolean).join(' ')}
        data-testid={props['data-testid']}
      >
        {props.caption ? <caption className="sr-only">{props.caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              const ariaSort = active
                ? sort.dir === 'asc'
                  ? 'ascending'
                  : 'descending'
                : c.sortable
                  ? 'none'
                  : undefined;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={
                    [c.align === 'right' ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ') ||
                    undefined
                  }
                  style={c.width ? { width: c.width } : undefined}
                  aria-sort={ariaSort}
                >
                  {c.sortable && onSort ? (
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => onSort(c.key)}
                      data-sort={c.key}
                    >
                      {c.header}
                      <span aria-hidden="true">{active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}</span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const selected = selectedKey === key;
            const after = props.rowAfter?.(row) ?? null;
            return (
              <Fragment key={key}>
                <tr
                  aria-selected={selectedKey !== undefined ? selected : undefined}
                  className={onRowClick ? 'clickable' : undefined}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  onKeyDown={props.onRowKeyDown ? (e) => props.onRowKeyDown?.(row, e) : undefined}
                  data-key={key}
                  {...props.rowProps?.(row)}
                >
                  {columns.map((c) => (
                    <td
                      key={c.key}
                      className={
                        [c.align === 'right' ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ') ||
                        undefined
                      }
                    >
                      {c.render(row)}
                    </td>
                  ))}
                </tr>
                {after !== null ? (
                  <tr className="row-after" data-after={key}>
                    <td colSpan={columns.length}>{after}</td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
