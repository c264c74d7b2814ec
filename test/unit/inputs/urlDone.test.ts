/**
 * VS Code's "done" after a URLElicitationRequiredError's URL (-32042): a notification with Done and
 * Cancel naming the server and the host; the wrappers of the host's provider pass it through, so the
 * call waits for it before it is sent again.
 */
import assert from 'node:assert/strict';
import { prefilledInputs } from '../../../src/core/history/savedCallInputs';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';
import { askUrlDone, URL_DONE_BUTTONS } from '../../../src/vscode/inputs/urlDone';
import { deferred, scriptedProvider } from '../../support/providers';

const PARAMS = { mode: 'url', url: 'https://sign.example.com/start?x=1', message: 'Sign first', elicitationId: 'e1' } as never;
const ctx = (signal = new AbortController().signal): InputContext => ({
  key: 'e1',
  signal,
  round: { flowId: 1, server: 'everything', method: 'tools/call', target: 'trigger-url-elicitation', round: 0, inputs: [], era: 'legacy' },
});

describe('VS Code: Done after a -32042 URL', () => {
  it('Done resolves; the notification names the server, the call and the host, with Done and Cancel', async () => {
    const shown: { message: string; items: string[] }[] = [];
    await askUrlDone(PARAMS, ctx(), (message, ...items) => (shown.push({ message, items }), Promise.resolve(URL_DONE_BUTTONS.done)));
    assert.deepEqual(shown[0].items, ['Done', 'Cancel']);
    assert.match(shown[0].message, /everything sends tools\/call trigger-url-elicitation again once you are done at sign\.example\.com/);
  });

  it('Cancel, or closing the notification, cancels the call', async () => {
    for (const answer of [URL_DONE_BUTTONS.cancel, undefined])
      await assert.rejects(
        askUrlDone(PARAMS, ctx(), () => Promise.resolve(answer)),
        (e: unknown) => e instanceof HostError && e.kind === 'cancelled' && /sign\.example\.com/.test(e.message),
      );
  });

  it("the server's completion (the signal) ends the wait without an answer", async () => {
    const ac = new AbortController();
    const never = deferred<string | undefined>();
    const waiting = askUrlDone(PARAMS, ctx(ac.signal), () => never.promise);
    ac.abort(new HostError('cancelled', 'server said complete'));
    await assert.rejects(waiting, /server said complete/);
  });

  it("a saved call's pre-filling provider passes the wait to the person's provider", async () => {
    let asked = 0;
    const inner = { ...scriptedProvider({}), urlDone: () => (asked++, Promise.resolve()) };
    await prefilledInputs({}, inner).urlDone!(PARAMS, ctx());
    assert.equal(asked, 1);
  });
});
