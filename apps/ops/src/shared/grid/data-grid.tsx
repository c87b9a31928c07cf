import { Button, Group, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import {
  type ColumnDef,
  type SortingState,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { type ReactNode, useState } from 'react';

export interface DataGridProps<T> {
  /** What the table lists, read out as its caption. */
  caption: string;
  /** Show the caption on screen too (else it is for screen readers only). */
  showCaption?: boolean;
  data: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column values differ per column
  columns: ColumnDef<T, any>[];
  getRowId?: (row: T) => string;
  /** Rows a page, paged here; unset: every row given (the caller pages, e.g. from the server). */
  pageSize?: number;
  /** A text filter across every column, applied here. */
  filter?: string;
  /** Said in the table's body when there are no rows. */
  emptyText: string;
  /** Under the table: the caller's own pager (server paging), replacing this one. */
  footer?: ReactNode;
  initialSorting?: SortingState;
  /** Below this width the table scrolls sideways (a phone) rather than squeezing its columns. */
  minWidth?: number;
  /**
   * Sorting done by the caller (the server sorts a paged list): the grid shows and changes this
   * state and leaves the rows in the order given.
   */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  /** A row pressed with a pointer; the row should also hold a link for the keyboard. */
  onRowClick?: (row: T) => void;
}

const SORT_WORDS = { asc: 'ascending', desc: 'descending' } as const;

/**
 * The console's grid (TanStack Table): a real table (caption, column headers, aria-sort), headers
 * that sort when pressed (buttons, so reachable with Tab and used with Enter or Space), an optional
 * text filter and paging. The fleet pages use it too.
 */
export function DataGrid<T>({
  caption,
  showCaption = false,
  data,
  columns,
  getRowId,
  pageSize,
  filter,
  emptyText,
  footer,
  initialSorting = [],
  minWidth = 720,
  sorting: outerSorting,
  onSortingChange,
  onRowClick,
}: DataGridProps<T>) {
  const [innerSorting, setInnerSorting] = useState<SortingState>(initialSorting);
  const manualSorting = outerSorting !== undefined;
  const sorting = outerSorting ?? innerSorting;
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: pageSize ?? 10_000 });
  const table = useReactTable({
    data,
    columns,
    getRowId,
    state: { sorting, pagination, globalFilter: filter ?? '' },
    manualSorting,
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      if (onSortingChange) onSortingChange(next);
      else setInnerSorting(next);
    },
    onPaginationChange: setPagination,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    autoResetPageIndex: true,
  });
  const rows = table.getRowModel().rows;
  const pages = table.getPageCount();

  return (
    <div>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table striped highlightOnHover verticalSpacing="xs" captionSide="top">
          {showCaption ? <caption>{caption}</caption> : <VisuallyHidden component="caption">{caption}</VisuallyHidden>}
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <Table.Th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted ? SORT_WORDS[sorted] : header.column.getCanSort() ? 'none' : undefined}
                    >
                      {header.isPlaceholder ? null : header.column.getCanSort() ? (
                        <UnstyledButton
                          onClick={header.column.getToggleSortingHandler()}
                          fw={700}
                          fz="sm"
                          style={{ whiteSpace: 'nowrap' }}
                        >
                          {label}
                          <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span>
                          <VisuallyHidden>
                            {sorted ? `, sorted ${SORT_WORDS[sorted]}` : ''}, press to sort
                          </VisuallyHidden>
                        </UnstyledButton>
                      ) : (
                        label
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" size="sm">
                    {emptyText}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr
                  key={row.id}
                  onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                  style={onRowClick ? { cursor: 'pointer' } : undefined}
                >
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {footer ??
        (pageSize !== undefined && pages > 1 && (
          <Group justify="space-between" mt="sm">
            <Text size="sm" aria-live="polite">
              Page {pagination.pageIndex + 1} of {pages}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                onClick={() => table.previousPage()}
                disabled={!table.getCanPreviousPage()}
              >
                Previous page
              </Button>
              <Button variant="default" size="xs" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
                Next page
              </Button>
            </Group>
          </Group>
        ))}
    </div>
  );
}
