// The conformance adapter's own logic (src/cli/conformanceClient.ts): which era a revision means, the
// scenario context's tool calls, and the scripted person that accepts a form as it opens. The adapter
// itself runs against the official suite in test/conformance/run.mjs.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  conformanceSettings,
  contextToolCalls,
  eraFor,
  SCENARIOS,
  scriptedPerson,
  WORKLOAD_TOKEN_ENV,
} from '../../../src/cli/conformanceClient';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { SkillRefused } from '../../../src/core/skills/skillLoader';

const SKILLS_SERVER = join(__dirname, '..', '..', 'fixtures', 'skillsServer.mjs');

/** The fixture skills server in `mode` over stdio, with the URIs it read. */
function skillsServer(mode: string) {
  const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-conf-')), 'reads.txt');
  const conn = new ServerConnection(
    { transport: 'stdio', name: 'conformance', command: process.execPath, args: [SKILLS_SERVER, mode], env: { RECORD_FILE: record } },
    { provider: scriptedPerson({}) },
  );
  return { conn, reads: () => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []) };
}
const run = (scenario: string) => ({ scenario, serverUrl: '', context: {}, log: () => {} });

const ctx = {} as InputContext;

describe('conformance adapter', () => {
  it('configures the auth extension scenarios as a person would: secrets as values, keys and ID tokens in 0600 files, a workload token in a variable', () => {
    const basic = { client_id: 'c', client_secret: 's' };
    assert.deepEqual(conformanceSettings('auth/client-credentials-basic', basic), {
      grant: 'client_credentials',
      clientId: 'c',
      clientSecret: 's',
    });
    assert.deepEqual(conformanceSettings('auth/pre-registration', basic), { clientId: 'c', clientSecret: 's' });
    const jwt = conformanceSettings('auth/client-credentials-jwt', { client_id: 'c', private_key_pem: 'PEM', signing_algorithm: 'ES256' });
    assert.equal(jwt.grant, 'client_credentials');
    assert.equal(readFileSync(jwt.privateKeyFile!, 'utf8'), 'PEM');
    assert.equal(statSync(jwt.privateKeyFile!).mode & 0o777, 0o600);
    const env: NodeJS.ProcessEnv = {};
    assert.deepEqual(conformanceSettings('auth/wif-jwt-bearer', { client_id: 'w', valid_jwt: 'J' }, env), {
      grant: 'jwt_bearer',
      clientId: 'w',
      assertionEnv: WORKLOAD_TOKEN_ENV,
    });
    assert.equal(env[WORKLOAD_TOKEN_ENV], 'J');
    const ema = conformanceSettings('auth/enterprise-managed-authorization', {
      client_id: 'c',
      client_secret: 's',
      idp_issuer: 'http://idp',
      idp_client_id: 'i',
      idp_id_token: 'T',
    });
    assert.equal(ema.grant, 'enterprise');
    assert.equal(ema.idpIssuer, 'http://idp');
    assert.equal(readFileSync(ema.idTokenFile!, 'utf8'), 'T');
  });

  it('speaks 2025 with the handshake, 2026-07-28 statelessly, and negotiates when not told', () => {
    assert.equal(eraFor('2025-11-25'), 'legacy');
    assert.equal(eraFor('2025-06-18'), 'legacy');
    assert.equal(eraFor('2026-07-28'), 'modern');
    assert.equal(eraFor(undefined), 'auto');
  });

  it('reads the tool calls of a scenario context, ignoring malformed entries', () => {
    assert.deepEqual(contextToolCalls({ toolCalls: [{ name: 't', arguments: { a: null } }, { name: 'u' }, { arguments: {} }, 3] }), [
      { name: 't', arguments: { a: null } },
      { name: 'u', arguments: {} },
    ]);
    assert.equal(contextToolCalls({}), undefined);
  });

  it('the scripted person accepts the form as it opens: defaults pre-filled, typed values on top, types kept', async () => {
    const person = scriptedPerson({ confirmed: true });
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
        verified: { type: 'boolean', default: true },
        confirmed: { type: 'boolean' },
      },
    };
    assert.deepEqual(await person.elicit({ message: 'm', requestedSchema: schema } as never, ctx), {
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true, confirmed: true },
    });
    // It declares only what it answers.
    assert.deepEqual(person.capabilities, { elicitation: { form: {} }, roots: {} });
  });

  it('the scripted person never sends an accept that misses a required field', async () => {
    const person = scriptedPerson({});
    await assert.rejects(
      person.elicit(
        { message: 'm', requestedSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } } as never,
        ctx,
      ),
      /does not fit the form/,
    );
  });

  it('knows every non-auth client scenario of the suite requirement sets it is run for', () => {
    for (const s of [
      'initialize',
      'tools_call',
      'elicitation-sep1034-client-defaults',
      'sse-retry',
      'request-metadata',
      'sep-2322-client-request-state',
      'http-standard-headers',
      'http-custom-headers',
      'http-invalid-tool-headers',
      'json-schema-ref-no-deref',
      'json-schema-2020-12-preservation',
      'sep-2640-client-no-prefetch',
      'sep-2640-client-verify-digest',
      'sep-2640-client-verify-size',
      'sep-2640-client-verify-frontmatter',
    ]) {
      assert.equal(typeof SCENARIOS[s], 'function', s);
    }
  });

  it('SEP-2640: no-prefetch lists and reads nothing; verify-* reads the other files only of a skill that verified', async function () {
    this.timeout(20_000);
    const cases = [
      ['honest', 'sep-2640-client-no-prefetch', []],
      ['honest', 'sep-2640-client-verify-digest', ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']],
      ['tampered-digest', 'sep-2640-client-verify-digest', ['skill://pdf-processing/SKILL.md']],
    ] as const;
    for (const [mode, scenario, reads] of cases) {
      const s = skillsServer(mode);
      try {
        const done = SCENARIOS[scenario](s.conn, run(scenario));
        if (mode === 'honest') await done;
        else await assert.rejects(done, (e) => e instanceof SkillRefused && e.reason === 'digest');
        assert.deepEqual(s.reads(), reads, `${scenario} on ${mode}`);
      } finally {
        await s.conn.close();
      }
    }
  });
});
