/**
 * Resource templates in VS Code: Read Resource… offers them after the resources; picking one opens the
 * arguments form (one required string per variable), then reads the expanded URI. Prompt and template
 * forms get suggestions from `completion/complete` when the server has the `completions` capability.
 *
 * Spec: MCP 2026-07-28 "Resources" (resource templates), "Completion".
 */
import * as vscode from 'vscode';
import { uriToRead } from '../../core/arguments/uriTemplate';
import { errorMessage } from '../../core/util/errors';
import type { ArgumentsRequest } from '../roundPanel/inputUi';
import { completerFor, templateArgumentsRequest } from './argumentCompletion';
import type { ServerEntry } from '../servers/serverEntry';
import { notificationText } from '../shared/notificationText';
import type { ListedItem } from './pickAndRun';
import { runCall, type CallDeps } from './runCall';

/** A server's resource templates, or none when it lists none or listing them failed (said in the log). */
export async function listTemplates(deps: CallDeps, entry: ServerEntry): Promise<ListedItem[]> {
  try {
    const conn = await deps.registry.connection(entry);
    if (!conn.serverCapabilities?.resources) return [];
    return ((await conn.list('resourceTemplates')) as ListedItem[]).filter((t) => typeof t.uriTemplate === 'string');
  } catch (e) {
    deps.log.warn(`${entry.name}: resources/templates/list failed: ${errorMessage(e)}`);
    return [];
  }
}

/** Read a resource through a template: its variables in the arguments form, then `resources/read` of the expanded URI. */
export async function readTemplate(deps: CallDeps, entry: ServerEntry, template: ListedItem): Promise<void> {
  let request: ArgumentsRequest;
  try {
    const conn = await deps.registry.connection(entry);
    request = templateArgumentsRequest(entry.name, template, completerFor(conn, { type: 'ref/resource', uri: template.uriTemplate ?? '' }));
  } catch (e) {
    return void vscode.window.showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`));
  }
  // A template without variables is read as its URI.
  if (Object.keys(request.schema.properties as object).length === 0) {
    await runCall(deps, entry, 'resources/read', { uri: template.uriTemplate ?? '' });
    return;
  }
  const args = await deps.ui.collectArguments(request);
  if (!args) return;
  let uri: string;
  try {
    uri = uriToRead(template.uriTemplate ?? '', args);
  } catch (e) {
    deps.ui.endArguments(request);
    return void vscode.window.showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`));
  }
  await runCall(deps, entry, 'resources/read', { uri }, { argumentsRequest: request });
}
