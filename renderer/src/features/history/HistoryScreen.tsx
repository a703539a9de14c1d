// History: every quote (desk and /v1), searchable; open one for its full result, re-run it to see the
// price change per service, export CSV/XLSX, copy as curl (ux.md "Other screens"). #/history is the list,
// #/history/42 one quote.
import type { ReactNode } from 'react';
import { HistoryDetail } from './HistoryDetail';
import { HistoryList } from './HistoryList';

export function HistoryScreen(props: { params: string[] }): ReactNode {
  const id = Number(props.params[0]);
  if (Number.isInteger(id) && id > 0) return <HistoryDetail id={id} />;
  return <HistoryList />;
}
