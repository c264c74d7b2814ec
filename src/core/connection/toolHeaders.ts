/**
 * The `x-mcp-header` declarations of a connection's tools, remembered from its last `tools/list`, and
 * the `Mcp-Param-{Name}` headers of each `tools/call` built from them (`mcpParamHeaders.ts`).
 *
 * Spec: MCP 2026-07-28, "Streamable HTTP", "Custom Headers from Tool Parameters" (SEP-2243): only on
 * a 2026-07-28 HTTP connection. The SDK adds them in `callTool()` alone, and the host sends legs with
 * `request()`.
 */
import { errorMessage } from '../util/errors';
import { buildParamHeaders, scanHeaderDeclarations, type HeaderDeclaration } from './mcpParamHeaders';

/** At most this many excluded tools are named in the warning; the rest are counted. */
const MAX_NAMED = 20;

/** The header declarations of one connection's listed tools, and the headers of each `tools/call`. */
export class ToolHeaders {
  private declarations?: Map<string, HeaderDeclaration[]>;
  private loading?: Promise<unknown>;

  /** @param warn receives a line naming the tools whose declarations are refused, or a failed listing */
  constructor(private readonly warn: (message: string) => void) {}

  /** Forget what was listed (a reconnected server may list other tools). */
  reset(): void {
    this.declarations = undefined;
  }

  /** The server answered HeaderMismatch: say so (`message`), and read the declarations again at the next listing. */
  mismatched(message: string): void {
    this.warn(message);
    this.reset();
  }

  /**
   * Remember the declarations of listed tools, and drop the tools whose declarations break a rule
   * (spec: a Streamable HTTP client MUST exclude them; they are named in one warning).
   * @returns the tools kept, in order
   */
  remember<T extends { name: string; inputSchema?: unknown }>(tools: readonly T[]): T[] {
    const map = new Map<string, HeaderDeclaration[]>();
    const kept: T[] = [];
    const excluded: string[] = [];
    for (const t of tools) {
      const scan = scanHeaderDeclarations(t.inputSchema);
      if (!scan.ok) {
        excluded.push(`${t.name} (${scan.reason})`);
        continue;
      }
      if (scan.declarations.length) map.set(t.name, scan.declarations);
      kept.push(t);
    }
    this.declarations = map;
    if (excluded.length) {
      const more = excluded.length > MAX_NAMED ? `, and ${excluded.length - MAX_NAMED} more` : '';
      this.warn(
        `excluded ${excluded.length} tool(s) whose x-mcp-header declarations break a rule: ${excluded.slice(0, MAX_NAMED).join('; ')}${more}`,
      );
    }
    return kept;
  }

  /**
   * The headers of one `tools/call`. Needs the tool's definition: when no tools were listed yet (a
   * CLI call), `listTools` runs once first (it calls {@link remember}); a tool still unknown gets none.
   * @param params the call's params (`name`, `arguments`)
   * @returns the headers, or `undefined` when there are none
   */
  async headersFor(params: Record<string, unknown>, listTools: () => Promise<unknown>): Promise<Record<string, string> | undefined> {
    if (!this.declarations) {
      this.loading ??= listTools()
        .catch((e) => {
          // One attempt per connection: the calls go on without custom headers (the server may refuse them).
          this.declarations = new Map();
          this.warn(`could not list tools for their x-mcp-header parameters: ${errorMessage(e)}`);
        })
        .finally(() => (this.loading = undefined));
      await this.loading;
    }
    return this.headersOf(params);
  }

  /**
   * The headers of one `tools/call` when the tools were listed already (no wait): `{ headers }`, its
   * headers or `undefined` when it has none; `undefined` when the tools are still to be listed.
   */
  knownHeadersFor(params: Record<string, unknown>): { headers: Record<string, string> | undefined } | undefined {
    return this.declarations ? { headers: this.headersOf(params) } : undefined;
  }

  /** The headers of one `tools/call` from the declarations known so far; `undefined` when there are none. */
  private headersOf(params: Record<string, unknown>): Record<string, string> | undefined {
    const declarations = this.declarations?.get(String(params.name));
    if (!declarations?.length) return undefined;
    const headers = buildParamHeaders(declarations, params.arguments);
    return Object.keys(headers).length ? headers : undefined;
  }
}
