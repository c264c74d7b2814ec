/**
 * The round panel's HTML document: a strict Content Security Policy with a per-document nonce, one
 * stylesheet and one script from the extension, and no server data at all (the webview gets data
 * only by message, and renders it with `textContent`). Pure, so it is tested under Node.
 */

/** What the document references: the webview's `cspSource`, a fresh nonce, and the two URIs (as strings). */
export interface PanelHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** The document's title (default `MCP Roundtrip`). */
  title?: string;
  /** The test id of the `<main id="root">` the script fills (default `round-panel`; the result view uses its own). */
  testId?: string;
}

/**
 * The CSP: nothing by default; images and audio only from `data:` (sampling messages); styles and
 * fonts only from the extension; scripts only with the nonce. No `connect-src`, `frame-src` or
 * `unsafe-*`: the webview can load nothing from a server's URL, not even by mistake (docs/field-cases.md, F5).
 */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    'img-src data:',
    'media-src data:',
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** Attribute-safe text (the values here are ours, but a path may hold `&` or quotes). */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A webview's HTML document (see {@link panelCsp}): the round panel's, and the result view's; the body is an empty `<main id="root">` the script fills. */
export function panelHtml(o: PanelHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(o.styleUri)}">
<title>${attr(o.title ?? 'MCP Roundtrip')}</title>
</head>
<body>
<main id="root" data-testid="${attr(o.testId ?? 'round-panel')}" data-round="0"></main>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}
