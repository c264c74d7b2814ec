/**
 * The SDK's JSON Schema validator provider (`jsonSchemaValidator` of `@modelcontextprotocol/client`),
 * on the host's one validator (`toolArguments.ts`): the same dialects, RE2 for `pattern`, the same
 * limits, and ajv loaded only when a schema is first checked. Given to every `Client` the host makes,
 * and put by the build in place of the SDK's default (`sdkShims.ts`), so the SDK's own ajv setup is
 * neither bundled nor able to run a server's `pattern` with the native engine.
 *
 * Spec: MCP 2026-07-28 "JSON Schema usage" (2020-12 by default, `$schema` names the dialect).
 */
import type { JsonSchemaType, JsonSchemaValidator, JsonSchemaValidatorResult, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { validateToolArguments } from './toolArguments';

/**
 * A validator provider as the SDK's `Client` takes it (`ClientOptions.jsonSchemaValidator`).
 * `getValidator(schema)` throws for a schema the host cannot use (remote `$ref`, past the limits, an
 * unknown dialect), as the SDK expects of a provider: it then refuses the call before sending it.
 */
export class HostJsonSchemaValidator implements jsonSchemaValidator {
  /**
   * @param schema a JSON Schema (object or boolean)
   * @returns a check of one value: `{valid: true, data}` or `{valid: false, errorMessage}` naming the
   *   failing property paths ("window: is required; …")
   * @throws Error "invalid tool schema: …" naming what makes the schema unusable
   */
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const probe = validateToolArguments(schema, undefined);
    if (!probe.ok && probe.schemaError) throw new Error(probe.message);
    return (input: unknown): JsonSchemaValidatorResult<T> => {
      const r = validateToolArguments(schema, input);
      return r.ok ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: r.message };
    };
  }
}
