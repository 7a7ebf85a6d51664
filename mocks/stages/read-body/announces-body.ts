/** Whether the request announced a body (Content-Length above 0, or chunked). */
export function announcesBody(headers: Record<string, string>): boolean {
  return Number(headers['content-length']) > 0 || headers['transfer-encoding'] !== undefined;
}
