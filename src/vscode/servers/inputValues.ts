/**
 * The values of `${input:id}` variables (VS Code's `inputs` of `mcp.json`): each asked of the person
 * once; password values kept in VS Code's secret storage, others for this session only.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../../core/config/servers';

/** The `${input:id}` values of this session (passwords in secret storage). */
export class InputValues {
  private readonly definitions = new Map<string, InputDefinition>();
  private readonly values = new Map<string, string>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** Replace the known `inputs` definitions (read anew with every reload). */
  define(inputs: Iterable<InputDefinition>): void {
    this.definitions.clear();
    for (const i of inputs) this.definitions.set(i.id, i);
  }

  /**
   * The value of `${input:id}`: remembered, stored (a password), or asked now.
   * @throws Error when the person dismisses the question
   */
  async resolve(id: string): Promise<string> {
    const def = this.definitions.get(id);
    const secretKey = `mcpRoundtrip.input.${id}`;
    if (this.values.has(id)) return this.values.get(id)!;
    if (def?.password) {
      const stored = await this.secrets.get(secretKey);
      if (stored !== undefined) return stored;
    }
    const value = await vscode.window.showInputBox({
      title: 'MCP Roundtrip',
      prompt: def?.description ?? vscode.l10n.t('Value for {0}', `\${input:${id}}`),
      password: def?.password,
      value: def?.default,
      ignoreFocusOut: true,
    });
    if (value === undefined) throw new Error(`input "${id}" was not given`);
    if (def?.password) await this.secrets.store(secretKey, value);
    else this.values.set(id, value);
    return value;
  }
}
