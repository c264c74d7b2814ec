/**
 * Resource templates (RFC 6570, the SDK's `UriTemplate`): their variables as an arguments form, and a
 * template expanded into the URI to read. The CLI's `read <uriTemplate> --args` and VS Code's Read
 * Resource… both use it.
 *
 * Spec: MCP 2026-07-28 "Resources" (resource templates, `resources/templates/list`).
 */
import { UriTemplate } from '@modelcontextprotocol/client';
import { HostError, errorMessage } from '../util/errors';

function parse(uri: string): UriTemplate {
  try {
    return new UriTemplate(uri);
  } catch (e) {
    throw new HostError('usage', `read ${uri}: not a URI template (${errorMessage(e)})`);
  }
}

/**
 * The URI to read: `uri` itself, or with `args`, the URI template `uri` expanded (RFC 6570, the SDK's `UriTemplate`).
 * @throws HostError `usage` for a template that cannot be parsed, a variable it does not have, or a value that is no string or list of strings;
 *   for a URI template given without `args` (naming its variables)
 */
export function uriToRead(uri: string, args: Record<string, unknown> | undefined): string {
  if (args === undefined) {
    // A template read as it stands would ask the server for a URI with braces in it: say what to give.
    const names = variablesOf(uri);
    if (names.length)
      throw new HostError(
        'usage',
        `read ${uri}: this is a URI template; give its variables with --args, e.g. --args '${JSON.stringify(Object.fromEntries(names.map((n) => [n, '…'])))}' (its variables: ${names.join(', ')})`,
      );
    return uri;
  }
  const template = parse(uri);
  const names = template.variableNames;
  const vars: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(args)) {
    if (!names.includes(k))
      throw new HostError('usage', `read ${uri}: the template has no variable "${k}" (its variables: ${names.join(', ') || 'none'})`);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') vars[k] = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) vars[k] = v;
    else throw new HostError('usage', `read ${uri}: "${k}" needs a string or a list of strings`);
  }
  return template.expand(vars);
}

/**
 * A template's variables as the object schema an arguments form renders: one required string per
 * variable, in the template's order (each once).
 * @throws HostError `usage` for a template that cannot be parsed
 */
export function templateArgumentsSchema(uriTemplate: string): Record<string, unknown> {
  const names = [...new Set(parse(uriTemplate).variableNames)];
  const properties: Record<string, unknown> = {};
  for (const n of names) properties[n] = { type: 'string', title: n };
  return { type: 'object', properties, required: names };
}

/** The variables of `uri` read as a URI template (each once, in order); none for a URI that is no template. */
export function variablesOf(uri: string): string[] {
  try {
    return [...new Set(new UriTemplate(uri).variableNames)];
  } catch {
    return [];
  }
}
