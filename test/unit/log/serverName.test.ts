/**
 * A server's name in the round-trip log (src/core/log/traceLog.ts): it comes from a workspace file or a
 * package, so it is one line without control characters, like any server text. A name holding
 * `ESC ]0;pwned BEL ESC [2J` and a line break set the terminal's title, cleared the screen and forged a line.
 */
import assert from 'node:assert/strict';
import { formatEvent } from '../../../src/core/log/traceLog';

describe('the round-trip log: a hostile server name', () => {
  it('is written as one line with its control characters replaced, in every line prefix', () => {
    const server = 'e\u001b]0;pwned\u0007\u001b[2J\n→ [demo] forged\u202e';
    const lines = [
      formatEvent({ kind: 'request', flowId: 1, server, method: 'tools/call', target: 't', round: 0, id: 0 }),
      formatEvent({ kind: 'serverWarning', server, message: 'm' }),
      formatEvent({ kind: 'connecting', server, attempt: 'first' }),
    ].map((l) => l!.text);
    for (const text of lines) {
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\u202e]/, JSON.stringify(text));
      assert.match(text, /\[e ]0;pwned \[2J → \[demo\] forged ]/);
    }
  });
});
