/**
 * A form-mode elicitation in the round panel: the form built from the server's `requestedSchema`
 * (pre-filled with what the person gave for the same key in an earlier round), answered by the
 * panel's Submit (all pending forms at once, see `../callPanel.ts`), Decline, or Cancel.
 *
 * Spec: MCP 2026-07-28 "Elicitation", form mode. An accept is only ever built by
 * `buildElicitResult`, which checks it against the schema (docs/field-cases.md, F1-F4).
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { checkAppElicitResult } from '../../../core/apps/appElicitation';
import { buildElicitResult } from '../../../core/elicitation/formCheck';
import { buildFormModel } from '../../../core/elicitation/formFields';
import type { FieldErrors, FormModel, RawFormValues } from '../../../core/elicitation/formModel';
import { errorMessage } from '../../../core/util/errors';
import type { FormInputView } from '../protocol';
import { ElicitationInput, type ElicitationSettle } from './elicitationInput';
import type { InputMessage, InputPanel } from './pendingInput';

/**
 * The app that renders a form (SEP-3118, app-rendered elicitation), served and ready to frame: its
 * document's URL on the loopback app server, its `ui://` resource, the params to send it, the host's
 * version for `ui/initialize`.
 */
export interface ElicitationApp {
  url: string;
  uri: string;
  params: Record<string, unknown>;
  hostVersion: string;
}

/** A pending form: its model (or why it cannot be shown), its view, and the check for Submit. */
export class FormInput extends ElicitationInput {
  readonly kind = 'form';
  /** The form, unless the schema cannot be shown as one (then {@link problem} says why). */
  readonly model?: FormModel;
  readonly problem?: string;
  /** Why the app is no longer shown (the person chose the form, or the app failed), once it is not. */
  private appNote?: string;
  private useForm = false;

  /**
   * @param requestedSchema the `requestedSchema` of the elicitation
   * @param previous the raw values the person submitted for this key in an earlier round of the call
   * @param app the app that answers instead of the fields (shown until **Use the Form** or a failure)
   */
  constructor(
    id: string,
    key: string,
    message: string,
    private readonly requestedSchema: unknown,
    previous: RawFormValues | undefined,
    settlement: ElicitationSettle,
    panel: InputPanel,
    private readonly app?: ElicitationApp,
  ) {
    super(id, key, message, settlement, panel);
    try {
      this.model = buildFormModel(requestedSchema, previous);
    } catch (e) {
      this.problem = `This form cannot be shown: ${errorMessage(e)}. You can only decline it.`;
    }
  }

  view(): FormInputView {
    return {
      kind: 'form',
      id: this.id,
      key: this.key,
      message: this.message,
      fields: this.model?.fields ?? [],
      state: this.state,
      ...(this.problem ? { problem: this.problem } : {}),
      ...(this.showsApp && this.app ? { app: { ...this.app } } : {}),
      ...(this.appNote ? { appNote: this.appNote } : {}),
    };
  }

  /** True while the app answers this form (not after **Use the Form**, a failure, or once answered). */
  get showsApp(): boolean {
    return !!this.app && !this.useForm && this.pending;
  }

  /**
   * **Use the Form**, the app's answer (checked against the schema: an answer that fails it shows the
   * form instead, never goes to the server), or the app's failure (the form, with why).
   */
  override receive(m: InputMessage): string | undefined {
    if (m.type !== 'useForm' && m.type !== 'appAnswer' && m.type !== 'appFailed') return super.receive(m);
    if (!this.showsApp) return 'no form shown as an app';
    const fallBack = (note: string | undefined, log: string) => {
      this.useForm = true;
      this.appNote = note;
      this.panel.debug(`form ${this.key}: ${log}`);
      this.panel.changed();
    };
    if (m.type === 'useForm') return void fallBack(undefined, 'the person chose the form over the app');
    if (m.type === 'appFailed') return void fallBack(`The app could not be used (${m.reason}); fill in the form instead.`, m.reason);
    const outcome = checkAppElicitResult(m.result, this.requestedSchema);
    if (!outcome.ok) return void fallBack(`The app's answer was not used (${outcome.reason}); fill in the form instead.`, outcome.reason);
    this.answer(outcome.result);
    this.panel.changed();
    return undefined;
  }

  /**
   * Check what the person typed for Submit.
   * @returns the accept to send, or the field errors to show (`''` for the form as a whole)
   */
  check(raw: RawFormValues): { ok: true; result: ElicitResult } | { ok: false; errors: FieldErrors } {
    if (!this.model) return { ok: false, errors: { '': this.problem ?? 'This form cannot be answered; decline it.' } };
    const outcome = buildElicitResult(this.model, 'accept', raw);
    return outcome.ok ? { ok: true, result: outcome.result } : outcome;
  }

  /** The raw values of this form's own fields, out of what the webview sent (kept to pre-fill a re-asked form). */
  ownValues(raw: RawFormValues): RawFormValues {
    return Object.fromEntries((this.model?.fields ?? []).filter((f) => f.key in raw).map((f) => [f.key, raw[f.key]]));
  }
}

/**
 * Submit: accept every form at once, only when every one passes (never an accept that fails its
 * schema). Each form's errors are reported, `{}` for a form that passed.
 * @param values the raw values the webview sent, by form id
 * @param remember receives each accepted form's own raw values, before it is answered
 * @returns true when every form was accepted
 */
export function acceptAll(
  forms: readonly FormInput[],
  values: Readonly<Record<string, RawFormValues>>,
  report: (id: string, errors: FieldErrors) => void,
  remember: (key: string, raw: RawFormValues) => void,
): boolean {
  const accepted: { form: FormInput; raw: RawFormValues; result: ElicitResult }[] = [];
  for (const form of forms) {
    const raw = values[form.id] ?? {};
    const check = form.check(raw);
    report(form.id, check.ok ? {} : check.errors);
    if (check.ok) accepted.push({ form, raw, result: check.result });
  }
  if (accepted.length < forms.length) return false;
  for (const { form, raw, result } of accepted) {
    remember(form.key, form.ownValues(raw));
    form.answer(result);
  }
  return true;
}
