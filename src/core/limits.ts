/**
 * The bounds the host puts on what a server sends, so that no server, broken or hostile, can exhaust
 * the host's memory, overflow its stack or flood its log. Each is checked before the input is
 * buffered or walked; each refusal is an error naming the limit and the server. The README's
 * "Limits" table lists these values (and the older bounds of forms and tool schemas, kept with their
 * code: `MAX_FORM_FIELDS`, `MAX_SCHEMA_DEPTH`, ...).
 */

/**
 * Largest JSON-RPC message read from a server, in bytes, on every transport: a stdio line, an HTTP
 * response body, one server-sent event. The same value as the SDK's own stdio default, so nothing a
 * server could send before is refused now on stdio.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Deepest nesting of objects and arrays in a message from a server. The host (and the libraries under
 * it: `JSON.stringify`, structured clone, JSON Schema compilers) recurses over what a server sends;
 * V8 overflows its stack a few thousand levels down.
 */
export const MAX_JSON_DEPTH = 64;

/** Longest stderr line of a server the host keeps, in bytes; the rest of a longer line is dropped and counted. */
export const MAX_STDERR_LINE_BYTES = 4096;

/** How many stderr lines of a server are kept to explain a failure (newest last). */
export const STDERR_TAIL_LINES = 20;

/** At most this many stderr lines of one server reach the log per {@link STDERR_LOG_WINDOW_MS}; the rest are counted in one line. */
export const STDERR_LOG_LINES_PER_WINDOW = 100;

/** The window of {@link STDERR_LOG_LINES_PER_WINDOW}, ms. */
export const STDERR_LOG_WINDOW_MS = 1000;

/** Most entries one `input_required` result may carry in `inputRequests` (each becomes a form, a review or a consent). */
export const MAX_INPUT_REQUESTS_PER_ROUND = 32;

/** Most items one listing (tools, prompts, resources; all its pages together) may hold. */
export const MAX_LIST_ITEMS = 10_000;

/** Most bytes a server may send for one listing, all its pages together. */
export const MAX_LIST_BYTES = 32 * 1024 * 1024;

/** Most pages of one listing (a server whose cursors never end is stopped here). */
export const MAX_LIST_PAGES = 64;

/**
 * Most times in a row the host resumes a server-sent event stream (a 2025-era server's `Last-Event-ID`
 * reconnection) that brought no message: a server that always ends its stream with a new event id
 * cannot keep the host reconnecting.
 */
export const MAX_SSE_RESUMPTIONS = 3;

/** How much of an HTTP error response's body is read to explain the error, in bytes; the rest is not read. */
export const MAX_HTTP_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Time limit of one handshake, ms: `server/discover`, and `initialize` for a 2025-era server,
 * together (a call's own time limit still applies while it waits for the handshake).
 */
export const CONNECT_TIMEOUT_MS = 30_000;

/**
 * How long the CLI, about to exit, lets a stdio server stop by itself once its stdin is closed
 * (then SIGTERM) before it kills it, ms: a server that ignores both cannot hold the CLI.
 */
export const SERVER_STOP_GRACE_MS = 1000;

/**
 * Largest MCP App document the host renders, in bytes (UTF-8, after decoding a base64 `blob`). The
 * published example apps are one self-contained page each, the biggest (a PDF viewer) about 4.3 MB.
 */
export const MAX_APP_RESOURCE_BYTES = 8 * 1024 * 1024;

/** Largest message an app's view may post to the host, in bytes (as JSON); a bigger one stops the app. */
export const MAX_APP_MESSAGE_BYTES = 1024 * 1024;

/** Most messages an app's view may post per {@link APP_MESSAGE_WINDOW_MS}; more stops the app (a flood). */
export const MAX_APP_MESSAGES_PER_WINDOW = 50;

/** The window of {@link MAX_APP_MESSAGES_PER_WINDOW}, ms. */
export const APP_MESSAGE_WINDOW_MS = 1000;
