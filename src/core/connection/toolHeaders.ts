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

/** The header declarations of one connection's listed tools, and the headers of each `tools/call`. */
export class ToolHeaders {
  private declarations?: Map<string, HeaderDeclaration[]>;
  private loading?: Promise<unknown>;

  /** @param warn receives a line naming a tool whose declarations are refused, or a failed listing */
  constructor(private readonly warn: (message: string) => void) {}

  /** Forget what was listed (a reconnected server may list other tools). */
  reset(): void {
    this.declarations = undefined;
  }

  /** Remember the declarations of listed tools (the SDK already dropped invalid ones). */
  remember(tools: readonly { name: string; inputSchema?: unknown }[]): void {
    const map = new Map<string, HeaderDeclaration[]>();
    for (const t of tools) {
      const scan = scanHeaderDeclarations(t.inputSchema);
      // A definition the SDK kept but this scan refuses gets no headers (the server then says HeaderMismatch).
      if (scan.ok && scan.declarations.length) map.set(t.name, scan.declarations);
      else if (!scan.ok) this.warn(`tool ${t.name}: ${scan.reason}`);
    }
    this.declarations = map;
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

  /** True once the tools were listed (or listing them failed): {@link headersOf} then needs no wait. */
  get listed(): boolean {
    return this.declarations !== undefined;
  }

  /** The headers of one `tools/call` from the declarations known so far; `undefined` when there are none. */
  headersOf(params: Record<string, unknown>): Record<string, string> | undefined {
    const declarations = this.declarations?.get(String(params.name));
    if (!declarations?.length) return undefined;
    const headers = buildParamHeaders(declarations, params.arguments);
    return Object.keys(headers).length ? headers : undefined;
  }
}
