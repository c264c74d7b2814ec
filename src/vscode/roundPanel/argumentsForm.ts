/**
 * The arguments form of a tool or prompt call, without `vscode`: the fields of the tool's
 * `inputSchema` (or the prompt's string arguments) as a form, and arguments built only when they
 * pass the schema.
 *
 * Spec: MCP 2026-07-28 "Tools" (`inputSchema`, JSON Schema 2020-12 by default) and "Prompts"
 * (`arguments`); see docs/field-cases.md, F10.
 */
import { buildToolArguments } from '../../core/arguments/toolArguments';
import { prepareToolSchema, type PreparedToolSchemaOk } from '../../core/arguments/toolSchema';
import { onAbort } from '../../core/util/async';
import type { ArgumentsRequest } from './inputUi';
import type { PanelHost } from './panelHost';
import type { RawFormValues } from '../../core/elicitation/formModel';
import { parseWebviewMessage } from './parseMessage';
import { ARGUMENTS_ID, MAX_SUGGESTIONS_SHOWN, type ArgumentsView, type CompleteMessage } from './protocol';
import { shownText } from '../../core/util/shownText';
import { errorMessage } from '../../core/util/errors';
import { MAX_SHOWN_PANEL_TEXT } from './shownView';

/** What the problem of a schema that cannot be used names. */
const SCHEMA_NAME = { tool: "tool's input schema", prompt: "prompt's arguments", template: "template's variables" } as const;

/**
 * The arguments form of one tool or prompt call (`InputUi.collectArguments`): fields from
 * `prepareToolSchema` (tool `inputSchema`, JSON Schema 2020-12; a prompt's string arguments), JSON
 * fields as text; Submit builds the arguments with `buildToolArguments` (ajv against the original
 * schema) and resolves only when they pass; the panel then stays open, read-only, for the call's
 * rounds (its owner hands it to the call, `roundPanels.ts`). Cancel, Escape, closing the panel or
 * `signal` resolve `undefined` and close it. A schema that cannot be prepared shows its error and
 * offers only Cancel.
 */
export class ArgumentsForm {
  /** The arguments, or `undefined` when the person cancelled. */
  readonly result: Promise<Record<string, unknown> | undefined>;
  /** The raw values of the accepted submit (to pre-fill the next call of the same tool). */
  submitted?: RawFormValues;
  private readonly prepared?: PreparedToolSchemaOk;
  private readonly problem?: string;
  private done = false;
  /** The suggestion request in flight (a newer one, or the form's end, aborts it). */
  private completing?: AbortController;
  private resolve!: (v: Record<string, unknown> | undefined) => void;

  /**
   * @param request what to ask for (server, tool or prompt, schema)
   * @param previous raw values submitted for the same tool or prompt last time
   * @param host the panel
   * @param signal resolves `undefined` and closes the panel when it aborts
   */
  constructor(
    private readonly request: ArgumentsRequest,
    previous: RawFormValues | undefined,
    private readonly host: PanelHost<ArgumentsView>,
    signal?: AbortSignal,
  ) {
    this.result = new Promise((resolve) => (this.resolve = resolve));
    const prepared = prepareToolSchema(request.schema, previous);
    if (prepared.ok) this.prepared = prepared;
    else this.problem = `The ${SCHEMA_NAME[request.kind]} cannot be used: ${prepared.error}`;
    if (signal?.aborted) this.finish(undefined);
    else {
      if (signal) onAbort(signal, () => this.finish(undefined));
      this.host.render(this.view(), true);
    }
  }

  /** What the webview shows. */
  view(): ArgumentsView {
    const r = this.request;
    return {
      kind: 'arguments',
      server: r.server,
      argKind: r.kind,
      name: r.name,
      ...(r.title ? { title: r.title } : {}),
      ...(r.description ? { description: r.description } : {}),
      fields: this.prepared?.fields ?? [],
      ...(r.complete ? { completions: true } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
    };
  }

  /** Handle a message from the webview (only ready, submitArgs, complete and cancel mean something here). */
  receive(raw: unknown): void {
    if (this.done) return;
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.host.debug(`arguments panel (${this.request.name}): ignored a message from the webview: ${parsed.reason}`);
    const m = parsed.message;
    if (m.type === 'ready') return this.host.render(this.view(), false);
    if (m.type === 'cancel') return this.finish(undefined);
    if (m.type === 'complete') return this.suggest(m);
    if (m.type !== 'submitArgs')
      return this.host.debug(`arguments panel (${this.request.name}): ignored ${m.type}: not an arguments message`);
    if (!this.prepared) return this.host.debug(`arguments panel (${this.request.name}): ignored submit: the schema cannot be used`);
    const outcome = buildToolArguments(this.prepared, m.values);
    if (!outcome.ok) return this.host.errors(ARGUMENTS_ID, outcome.errors);
    this.submitted = m.values;
    this.finish(outcome.args, false);
    this.host.render({ ...this.view(), sent: true }, false);
  }

  /** The person closed the panel: cancel. */
  closedByUser(): void {
    this.finish(undefined, false);
  }

  /**
   * Ask the server for suggestions for one field (only one request at a time: a newer one aborts it)
   * and send them to the webview: at most 100, each cut like other shown text.
   */
  private suggest(m: CompleteMessage): void {
    const complete = this.request.complete;
    if (!complete) return this.host.debug(`arguments panel (${this.request.name}): ignored complete: the server offers no completions`);
    if (!this.prepared?.fields.some((f) => f.key === m.key))
      return this.host.debug(`arguments panel (${this.request.name}): ignored complete: no field ${JSON.stringify(m.key)}`);
    this.completing?.abort();
    const controller = (this.completing = new AbortController());
    const context = Object.fromEntries(Object.entries(m.context).filter(([k, v]) => k !== m.key && v !== ''));
    complete(m.key, m.value, context, controller.signal).then(
      (values) => {
        if (this.done || controller.signal.aborted) return;
        const shown = values.slice(0, MAX_SUGGESTIONS_SHOWN).map((v) => shownText(v, MAX_SHOWN_PANEL_TEXT));
        this.host.suggestions({ type: 'suggestions', key: m.key, seq: m.seq, values: shown });
      },
      (e: unknown) => {
        if (!controller.signal.aborted)
          this.host.debug(`arguments panel (${this.request.name}): no suggestions for ${m.key}: ${errorMessage(e)}`);
      },
    );
  }

  private finish(args: Record<string, unknown> | undefined, close = true): void {
    if (this.done) return;
    this.done = true;
    this.completing?.abort();
    this.resolve(args);
    if (close) this.host.close();
  }
}
