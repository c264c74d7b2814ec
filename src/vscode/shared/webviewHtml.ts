/**
 * The round panel's HTML document: a strict Content Security Policy with a per-document nonce, the
 * extension's one script and one stylesheet, and no server data the HTML parser acts on: the webview
 * renders data with `textContent`. Data comes as messages; the first one may be written into the
 * document as an inert JSON data block ({@link INITIAL_MESSAGE_ID}, every `<`, `>` and `&` escaped, so
 * the parser cannot leave the block, here nor when the workbench parses and writes the document again),
 * because the workbench hands a new webview the messages posted to it only after the page's `load`
 * event and a layout (the bench's panel figures, docs/performance.md). The script and stylesheet are written into the document under the nonce when their text
 * allows it ({@link inlineSafe}): the webview then fetches nothing before its first field (each fetch
 * is a trip through the workbench, in code-server through the server; test/bench measures the panel
 * against a bare webview). Pure, so it is tested under Node.
 */

/**
 * The id of the JSON data block in which a new panel's document carries its first message:
 * the webview renders it as the page loads, then reads messages as usual.
 */
export const INITIAL_MESSAGE_ID = 'initial-message';

/**
 * The id of the JSON data block in which the document carries the extension's l10n bundle (English
 * message → translation) for the webview's own strings (`media/src/shared/l10n.ts`).
 */
export const L10N_BUNDLE_ID = 'l10n-bundle';

/** A script or stylesheet of the document: its text, written into the document, or its URI (a string). */
export type PanelAsset = { text: string } | { uri: string };

/** What the document holds: the webview's `cspSource`, a fresh nonce, and its script and stylesheet. */
export interface PanelHtmlOptions {
  cspSource: string;
  nonce: string;
  script: PanelAsset;
  /**
   * A second script, by URI, under the same nonce, deferred: fetched while the page goes on, run once
   * it is parsed, before `DOMContentLoaded`. `script` has run (and what it started, such as a frame's
   * navigation, is under way) before this one is even compiled.
   */
  laterScript?: { uri: string };
  style: PanelAsset;
  /** The document's title (default `MCP Roundtrip`). */
  title?: string;
  /** The test id of the `<main id="root">` the script fills (default `round-panel`; the result view uses its own). */
  testId?: string;
  /** The first message for the script, written into the document as JSON ({@link jsonDataBlock}); none when undefined. */
  initialMessage?: unknown;
  /**
   * The person's language: the document's `lang` (default `en`) and the bundle of the webview's own
   * strings (`vscode.l10n.bundle`; none in English), written as a data block ({@link L10N_BUNDLE_ID}).
   */
  l10n?: { language: string; bundle?: Record<string, string> };
  /** The one origin the document may frame (the app view's loopback app server); none when undefined. */
  frameSrc?: string;
}

/**
 * The CSP: nothing by default; images and audio only from `data:` (sampling messages); fonts only from
 * the extension; scripts only with the nonce; styles only with the nonce (`inlineStyle`) or from the
 * extension. No `connect-src`, `frame-src` or `unsafe-*`: the webview can load nothing from a server's
 * URL, not even by mistake (docs/field-cases.md, F5). The one exception, `frameSrc`: the app view frames
 * its app from the loopback app server's origin (`core/apps/appServer.ts`), and nothing else.
 * @param inlineStyle true when the stylesheet is written into the document (`<style nonce>`)
 * @param frameSrc an `http(s)://host[:port]` origin the document may frame
 * @throws Error when `frameSrc` is not such an origin (nothing else may widen the policy)
 * @returns the policy, one line (`directive value; …`)
 */
export function panelCsp(cspSource: string, nonce: string, inlineStyle = false, frameSrc?: string): string {
  if (frameSrc !== undefined && !/^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i.test(frameSrc))
    throw new Error(`not an origin to frame: ${frameSrc}`);
  return [
    "default-src 'none'",
    'img-src data:',
    'media-src data:',
    `style-src ${inlineStyle ? `'nonce-${nonce}'` : cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    ...(frameSrc ? [`frame-src ${frameSrc}`] : []),
  ].join('; ');
}

/**
 * Whether `text` can be written between `<script>` and `</script>` (`kind` `script`) or `<style>` and
 * `</style>` (`style`) and be read back whole by the HTML parser: not when it holds the closing tag,
 * nor, for a script, `<!--` together with `<script` (the parser's "double escaped" state, in which
 * `</script>` no longer closes). Case-insensitive, as the parser is. Cautious: a few texts the parser
 * would read whole are refused too (then the asset is loaded by URI, and the log says so).
 *
 * Spec: HTML Standard, "Tokenization": script data, script data escaped and script data double
 * escaped states (`<script>`), RAWTEXT state (`<style>`).
 */
export function inlineSafe(text: string, kind: 'script' | 'style'): boolean {
  if (kind === 'style') return !/<\/style/i.test(text);
  return !/<\/script/i.test(text) && !(text.includes('<!--') && /<script/i.test(text));
}

/** Attribute-safe text (the values here are ours, but a path may hold `&` or quotes). */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A webview's HTML document (see {@link panelCsp}): the round panel's, and the result view's; the body
 * is an empty `<main id="root">` the script fills.
 * @throws Error when an asset's text is not {@link inlineSafe} (the caller gives its URI instead)
 */
export function panelHtml(o: PanelHtmlOptions): string {
  const n = attr(o.nonce);
  const style =
    'text' in o.style
      ? `<style nonce="${n}">${checked(o.style.text, 'style')}</style>`
      : `<link rel="stylesheet" href="${attr(o.style.uri)}">`;
  const script =
    ('text' in o.script
      ? `<script nonce="${n}">${checked(o.script.text, 'script')}</script>`
      : `<script nonce="${n}" src="${attr(o.script.uri)}"></script>`) +
    (o.laterScript ? `\n<script nonce="${n}" src="${attr(o.laterScript.uri)}" defer></script>` : '');
  return `<!DOCTYPE html>
<html lang="${attr(o.l10n?.language ?? 'en')}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(o.cspSource, o.nonce, 'text' in o.style, o.frameSrc))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${style}
<title>${attr(o.title ?? 'MCP Roundtrip')}</title>
</head>
<body>
<main id="root" data-testid="${attr(o.testId ?? 'round-panel')}" data-round="0"></main>
${o.l10n?.bundle ? `<script type="application/json" id="${L10N_BUNDLE_ID}">${jsonDataBlock(o.l10n.bundle)}</script>\n` : ''}${o.initialMessage === undefined ? '' : `<script type="application/json" id="${INITIAL_MESSAGE_ID}">${jsonDataBlock(o.initialMessage)}</script>\n`}${script}
</body>
</html>
`;
}

/**
 * `value` as the text of a JSON data block (`<script type="application/json">`): JSON with `<`, `>`,
 * `&` and the line separators U+2028/U+2029 written as `\uXXXX` escapes, which `JSON.parse` reads
 * back as the same characters. No tag, comment or character reference can then appear inside the
 * block, whatever the strings hold.
 * @throws Error when `value` has no JSON form (undefined, a function); TypeError (from `JSON.stringify`)
 *   for a cycle or a BigInt
 *
 * Spec: HTML Standard, "Restrictions for contents of script elements" (data blocks); RFC 8259 §7.
 */
export function jsonDataBlock(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new Error('this message has no JSON form and cannot be written into the document');
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function checked(text: string, kind: 'script' | 'style'): string {
  if (!inlineSafe(text, kind))
    throw new Error(`this ${kind} cannot be written into the document: it holds a sequence that would end its <${kind}> element early`);
  return text;
}
