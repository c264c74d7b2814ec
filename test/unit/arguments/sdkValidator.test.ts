/**
 * The SDK client's JSON Schema validator is the host's (src/core/arguments/sdkValidator.ts): given to
 * every client, and bundled in place of the SDK's default (sdkShims.ts), so the SDK's own ajv setup is
 * not in the shipped bundles.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HostJsonSchemaValidator } from '../../../src/core/arguments/sdkValidator';
import * as hostShims from '../../../src/core/arguments/sdkShims';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('the SDK client validator on the host validator', () => {
  const schema = {
    type: 'object',
    properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, seats: { type: 'integer', minimum: 1 } },
    required: ['code'],
  };

  it('passes a value the schema accepts and hands it back as data', () => {
    const input = { code: 'LIS', seats: 2 };
    assert.deepEqual(new HostJsonSchemaValidator().getValidator(schema)(input), { valid: true, data: input, errorMessage: undefined });
  });

  it('fails a value the schema refuses, naming each property path in the host words', () => {
    const r = new HostJsonSchemaValidator().getValidator(schema)({ code: 'lisbon', seats: 0 });
    assert.equal(r.valid, false);
    assert.match(r.errorMessage, /code: /);
    assert.match(r.errorMessage, /seats: must be 1 or more/);
  });

  it('throws on a schema it cannot use, naming why, as the SDK expects of a provider (the call is then refused before it is sent)', () => {
    assert.throws(
      () => new HostJsonSchemaValidator().getValidator({ $schema: 'https://example.com/my-dialect', type: 'object' }),
      /^Error: invalid tool schema: unsupported "\$schema" dialect/,
    );
    assert.throws(() => new HostJsonSchemaValidator().getValidator({ $ref: 'https://example.com/remote.json' }), /invalid tool schema/);
  });

  it('the build replacement exports exactly what the SDK client Node shims export', async () => {
    const sdk = (await import('@modelcontextprotocol/client/_shims')) as Record<string, unknown>;
    const names = (m: Record<string, unknown>) =>
      Object.keys(m)
        .filter((k) => k !== 'default' && k !== '__esModule')
        .sort();
    assert.deepEqual(names(hostShims as unknown as Record<string, unknown>), names(sdk));
    assert.equal(hostShims.CORS_IS_POSSIBLE, sdk.CORS_IS_POSSIBLE);
    assert.equal(hostShims.DefaultJsonSchemaValidator, HostJsonSchemaValidator);
  });

  for (const bundle of ['dist/extension.js', 'dist/cli-main.js']) {
    it(`${bundle} carries the host validator, not the SDK's own ajv setup`, function () {
      const file = path.join(ROOT, bundle);
      if (!existsSync(file)) throw new Error(`${bundle} is missing: run npm run build first`);
      const text = readFileSync(file, 'utf8');
      // The SDK's ajv provider's own error text: in the bundle exactly when the provider is.
      assert.equal(text.includes('pass a pre-configured Ajv instance'), false);
      assert.ok(text.includes('invalid tool schema'), 'the host validator is in the bundle');
    });
  }
});
