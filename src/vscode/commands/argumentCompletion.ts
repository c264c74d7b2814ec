/**
 * The arguments forms of prompts and resource templates, without `vscode`: a template's form request,
 * and the suggestions of their fields from `completion/complete`, bounded (a time limit, at most 100
 * values), only when the server has the `completions` capability.
 *
 * Spec: MCP 2026-07-28 "Resources" (resource templates), "Completion".
 */
import { templateArgumentsSchema } from '../../core/arguments/uriTemplate';
import { complete, offersCompletions, type CompletionRef } from '../../core/connection/completion';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { ArgumentCompleter, ArgumentsRequest } from '../roundPanel/inputUi';
import type { ListedItem } from './pickAndRun';

/** The longest a suggestion request may take (then the field shows none). */
export const COMPLETION_TIMEOUT_MS = 3_000;

/** The suggestions of a prompt's or template's fields, or `undefined` when the server has no `completions` capability. */
export function completerFor(conn: ServerConnection, ref: CompletionRef): ArgumentCompleter | undefined {
  if (!offersCompletions(conn)) return undefined;
  return (name, value, context, signal) =>
    complete(
      conn,
      { ref, argument: { name, value }, ...(Object.keys(context).length ? { context } : {}) },
      { signal, timeoutMs: COMPLETION_TIMEOUT_MS },
    );
}

/** A template's arguments form: named by the template's name (its URI template when it has none). */
export function templateArgumentsRequest(server: string, template: ListedItem, completer?: ArgumentCompleter): ArgumentsRequest {
  const uriTemplate = template.uriTemplate ?? '';
  return {
    server,
    kind: 'template',
    name: template.name ?? uriTemplate,
    ...(template.title ? { title: template.title } : {}),
    description: template.description ? `${uriTemplate} — ${template.description}` : uriTemplate,
    schema: templateArgumentsSchema(uriTemplate),
    ...(completer ? { complete: completer } : {}),
  };
}
