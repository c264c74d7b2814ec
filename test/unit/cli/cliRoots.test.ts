/** The CLI offers roots only when given: without --roots no `roots` capability, and a roots/list asked anyway is exit 3 naming --roots. */
import assert from 'node:assert/strict';
import { rootsHint, rootsOnlyWhenGiven } from '../../../src/cli/cliRoots';
import type { InputContext, InputProvider } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';

const inner: InputProvider = {
  capabilities: { elicitation: { form: {} }, roots: {} },
  elicit: () => Promise.resolve({ action: 'decline' }),
  sample: () => Promise.reject(new Error('no')),
  listRoots: () => ({ roots: [{ uri: 'file:///given' }] }),
};
const ctx = { key: 'r', round: { server: 'files', round: 1 }, signal: new AbortController().signal } as unknown as InputContext;

describe('CLI roots', () => {
  it('without --roots: no roots capability; elicitation still declared and answered', async () => {
    const p = rootsOnlyWhenGiven(inner, [], {});
    assert.deepEqual(p.capabilities, { elicitation: { form: {} } });
    assert.deepEqual(await p.elicit({} as never, ctx), { action: 'decline' });
  });

  it('without --roots, the person\'s "done" at a URL a -32042 asked to open is still asked (not skipped)', async () => {
    let asked = 0;
    const p = rootsOnlyWhenGiven({ ...inner, urlDone: () => Promise.resolve(void asked++) }, [], {});
    await p.urlDone?.({} as never, ctx);
    assert.equal(asked, 1);
    assert.equal(rootsOnlyWhenGiven(inner, [], {}).urlDone, undefined);
  });

  it('without --roots, a roots/list asked anyway ends the call as a missing answer that says to add --roots', async () => {
    await assert.rejects(
      Promise.resolve(rootsOnlyWhenGiven(inner, [], {}).listRoots(ctx)),
      (e: unknown) => e instanceof HostError && e.kind === 'missingAnswer' && /files asked for roots .*add --roots <dir>/.test(e.message),
    );
  });

  it('with --roots, or a scripted ListRootsResult, the provider is kept as it is', () => {
    assert.equal(rootsOnlyWhenGiven(inner, ['/a'], {}), inner);
    assert.equal(rootsOnlyWhenGiven(inner, [], { r: { roots: [] } }), inner);
  });

  it('the hint to add --roots follows a failure over roots only, and only without --roots', () => {
    const refused = new HostError(
      'server',
      'demo answered tools/call t with error -32021: needs client capabilities this request did not declare: roots',
    );
    const asked = new HostError('protocol', 'x asked for roots/list ("r"), a capability this host did not declare');
    assert.match(rootsHint(refused, []) ?? '', /add --roots <dir>/);
    assert.match(rootsHint(asked, []) ?? '', /add --roots <dir>/);
    assert.equal(rootsHint(refused, ['/a']), undefined);
    assert.equal(rootsHint(new HostError('server', 'error -32021: needs sampling'), []), undefined);
    assert.equal(rootsHint(new HostError('protocol', 'bad result'), []), undefined);
  });
});
