import { ApiError, authHeaders, noteAuthFailure } from '../../../shared/api/client.ts';

/**
 * Downloads a receipt PDF. Fetched rather than linked, so the owner's copy can carry the session
 * header a plain link cannot; saved under the name the server gives it.
 */
export async function downloadReceiptPdf(url: string): Promise<void> {
  const res = await fetch(url, { headers: { accept: 'application/pdf', ...authHeaders() } });
  if (!res.ok) {
    noteAuthFailure(res.status);
    throw new ApiError(res.status, res.statusText);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'receipt.pdf';
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The click has handed the file to the browser; the object URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
