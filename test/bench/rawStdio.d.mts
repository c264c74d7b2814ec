/** Types of rawStdio.mjs (plain JavaScript, so that rawClient.mjs runs on Node with nothing compiled). */
export interface RawAnswer {
  result?: Record<string, unknown>;
  error?: unknown;
}
export function rawStdio(
  server: string,
  clientName: string,
): { request: (method: string, params: Record<string, unknown>) => Promise<RawAnswer>; close: () => Promise<void> };
