/**
 * What the CLI shows beyond calls: listings (App-only tools left out, an empty one said on stderr) and
 * a result shown once.
 *
 * Spec: MCP 2026-07-28 "Resources" (resource templates, RFC 6570), "Completion", "Tools" (structured content).
 */
import { appResourceUri } from '../core/apps/appTool';
import { callableTools } from '../core/connection/toolVisibility';
import { withoutRepeatedStructured } from '../core/results/structuredEcho';
import { cliText } from './messages';

/** What a listing lists. */
type Listed = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** What a listing shows a person: the tools without the App-only ones; anything else as listed. */
export function shownItems(what: Listed, items: Record<string, unknown>[]): Record<string, unknown>[] {
  return what === 'tools' ? callableTools(items) : items;
}

/**
 * The mark of a listed tool that has an MCP App, e.g. `app ui://get-time/mcp-app.html` (the CLI shows
 * its text results; VS Code renders the app); `undefined` for any other item.
 */
export function appMark(item: Record<string, unknown>): string | undefined {
  const uri = appResourceUri(item);
  return uri ? `app ${uri}` : undefined;
}

/** The stderr line of an empty listing, e.g. `server-everything lists no tools`. */
export function emptyListingLine(server: string, what: Listed): string {
  switch (what) {
    case 'tools':
      return cliText('{0} lists no tools', server);
    case 'prompts':
      return cliText('{0} lists no prompts', server);
    case 'resources':
      return cliText('{0} lists no resources', server);
    default:
      return cliText('{0} lists no resource templates', server);
  }
}

/** The result as a person sees it: a tool's `structuredContent` left out when it only repeats a text block (`--json` keeps everything). */
export function shownResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  return method === 'tools/call' ? withoutRepeatedStructured(result) : result;
}
