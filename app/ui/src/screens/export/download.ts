/** The route of the export files (server/jobs/csv-export/downloads.ts DOWNLOAD_PREFIX). */
const DOWNLOAD_PATH = '/downloads/';

/**
 * The download link, on the origin this page came from. The server signs the file's path and
 * expiry, not its host, and the file is on the server that serves this UI (its API took the
 * request), so the link keeps the signed path and query but not the host of `fileUrl`: that
 * host is the public URL meant for a callback's receiver (the LAN address by default, or a
 * configured name), which this PC's browser may not reach or resolve.
 */
export function downloadHref(fileUrl: string, origin: string): string {
  let url: URL;
  try {
    url = new URL(fileUrl, origin);
  } catch {
    return fileUrl;
  }
  const at = url.pathname.lastIndexOf(DOWNLOAD_PATH);
  return at < 0 ? fileUrl : `${origin}${url.pathname.slice(at)}${url.search}`;
}
