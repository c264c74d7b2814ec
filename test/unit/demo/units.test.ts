// Pieces of the demo server tested in-process: arguments, environment, capability reading,
// the state codec's bindings and refusal reasons, and the palindrome rule.
import * as assert from 'node:assert/strict';
import { ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import { parseDemoArgs } from '../../../src/demo/args';
import { missingCapabilities } from '../../../src/demo/capabilities';
import { DEFAULT_TTL_SECONDS, readDemoConfig, type DemoConfig } from '../../../src/demo/config';
import { bindingOf, createBoundStateCodec, type StateTarget } from '../../../src/demo/state';
import { palindromeProblem } from '../../../src/demo/tools/askUntilValid';

describe('demo server pieces', () => {
  describe('parseDemoArgs', () => {
    it('defaults to stdio; --http takes a port, 0 included', () => {
      assert.deepEqual(parseDemoArgs([]), { kind: 'stdio' });
      assert.deepEqual(parseDemoArgs(['--http', '0']), { kind: 'http', port: 0 });
      assert.deepEqual(parseDemoArgs(['--http=8123']), { kind: 'http', port: 8123 });
      assert.deepEqual(parseDemoArgs(['--help']), { kind: 'help' });
    });

    it('refuses a missing or bad port and unknown flags', () => {
      assert.throws(() => parseDemoArgs(['--http']), /needs a port number/);
      assert.throws(() => parseDemoArgs(['--http', '70000']), /between 0 and 65535/);
      assert.throws(() => parseDemoArgs(['--http', '-1']), /needs a port number/);
      assert.throws(() => parseDemoArgs(['--verbose']), /Unknown argument "--verbose"/);
    });
  });

  describe('readDemoConfig', () => {
    it('random 32-byte key and a 10-minute TTL by default', () => {
      const one = readDemoConfig({});
      const two = readDemoConfig({});
      assert.equal(one.keySource, 'random');
      assert.equal(one.key.byteLength, 32);
      assert.notDeepEqual(Buffer.from(one.key), Buffer.from(two.key));
      assert.equal(one.ttlSeconds, DEFAULT_TTL_SECONDS);
      assert.equal(DEFAULT_TTL_SECONDS, 600);
    });

    it('takes the key and TTL from the environment', () => {
      const config = readDemoConfig({ MCP_ROUNDTRIP_DEMO_KEY: 'k'.repeat(40), MCP_ROUNDTRIP_DEMO_TTL_SECONDS: '2' });
      assert.equal(config.keySource, 'env');
      assert.equal(Buffer.from(config.key).toString(), 'k'.repeat(40));
      assert.equal(config.ttlSeconds, 2);
    });

    it('refuses a short key and a TTL that is not a positive whole number', () => {
      assert.throws(
        () => readDemoConfig({ MCP_ROUNDTRIP_DEMO_KEY: 'short' }),
        /MCP_ROUNDTRIP_DEMO_KEY must be at least 32 bytes long \(got 5\)/,
      );
      for (const ttl of ['0', '-5', '1.5', 'ten']) {
        assert.throws(
          () => readDemoConfig({ MCP_ROUNDTRIP_DEMO_TTL_SECONDS: ttl }),
          /MCP_ROUNDTRIP_DEMO_TTL_SECONDS must be a positive whole number/,
        );
      }
    });
  });

  describe('missingCapabilities', () => {
    const plan = { elicitation: { form: {} }, sampling: {}, roots: {} };

    it('lists only what is missing, nested members included', () => {
      assert.equal(missingCapabilities(plan, { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }), undefined);
      assert.deepEqual(missingCapabilities(plan, { elicitation: { url: {} }, roots: {} }), { elicitation: { form: {} }, sampling: {} });
      assert.deepEqual(missingCapabilities({ elicitation: { url: {} } }, { elicitation: { form: {} } }), { elicitation: { url: {} } });
      assert.deepEqual(missingCapabilities(plan, undefined), plan);
    });

    it('reads a bare elicitation: {} as form support only', () => {
      assert.equal(missingCapabilities({ elicitation: { form: {} } }, { elicitation: {} }), undefined);
      assert.deepEqual(missingCapabilities({ elicitation: { url: {} } }, { elicitation: {} }), { elicitation: { url: {} } });
    });
  });

  describe('bound state codec', () => {
    const config: DemoConfig = { key: new Uint8Array(32).fill(7), keySource: 'env', ttlSeconds: 600 };
    const ctx = {} as ServerContext; // the codec only hands ctx to bind(), which ignores it
    const booking: StateTarget = { method: 'tools/call', name: 'book_table', args: { restaurant: 'A', size: 2 } };

    const reasonOf = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (error) {
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, -32602);
        return (error.data as { reason: string }).reason;
      }
      throw new Error('verify accepted the state');
    };

    it('binds method, name and arguments; argument key order does not matter', () => {
      assert.equal(bindingOf(booking), bindingOf({ ...booking, args: { size: 2, restaurant: 'A' } }));
      assert.notEqual(bindingOf(booking), bindingOf({ ...booking, args: { restaurant: 'B', size: 2 } }));
      assert.notEqual(bindingOf(booking), bindingOf({ ...booking, method: 'prompts/get' }));
      assert.notEqual(bindingOf(booking), bindingOf({ ...booking, name: 'plan_trip' }));
    });

    it('round-trips its payload for the same target, also from another codec with the same key', async () => {
      const state = await createBoundStateCodec<{ step: number }>(config, booking).mint({ step: 2 }, ctx);
      assert.deepEqual(await createBoundStateCodec(config, { ...booking, args: { size: 2, restaurant: 'A' } }).verify(state, ctx), {
        step: 2,
      });
    });

    it('says which check failed: tampered, expired or another request', async () => {
      const codec = createBoundStateCodec<{ step: number }>(config, booking);
      const state = await codec.mint({ step: 1 }, ctx);
      // Flip the first signature character (the last one may only carry base64 padding bits).
      const dot = state.lastIndexOf('.');
      const flipped = `${state.slice(0, dot + 1)}${state[dot + 1] === 'A' ? 'B' : 'A'}${state.slice(dot + 2)}`;
      assert.equal(await reasonOf(codec.verify(flipped, ctx)), 'tampered');
      assert.equal(await reasonOf(codec.verify('v1.garbage', ctx)), 'tampered');
      assert.equal(
        await reasonOf(createBoundStateCodec({ ...config, key: new Uint8Array(32).fill(8) }, booking).verify(state, ctx)),
        'tampered',
      );
      assert.equal(await reasonOf(createBoundStateCodec(config, { ...booking, name: 'plan_trip' }).verify(state, ctx)), 'other_request');
      const stale = await createBoundStateCodec<{ step: number }>({ ...config, ttlSeconds: -2 }, booking).mint({ step: 1 }, ctx);
      assert.equal(await reasonOf(codec.verify(stale, ctx)), 'expired');
    });
  });

  describe('palindromeProblem', () => {
    it('accepts palindromes of five or more letters or digits, ignoring case, spaces and punctuation', () => {
      assert.equal(palindromeProblem('racecar'), undefined);
      assert.equal(palindromeProblem('Step on no pets!'), undefined);
      assert.equal(palindromeProblem('12321'), undefined);
    });

    it('explains what is wrong otherwise', () => {
      assert.equal(palindromeProblem('abcde'), '"abcde" is not a palindrome (backwards its letters read "edcba")');
      assert.equal(palindromeProblem('a-b-a'), '"a-b-a" has only 3 letters or digits (need 5)');
      assert.equal(palindromeProblem(42), 'no code was given');
    });
  });
});
