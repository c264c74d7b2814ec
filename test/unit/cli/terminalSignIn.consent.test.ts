/**
 * The CLI's question before a sign-in leaves the server's origin (issue 44): the host it goes to and the
 * scopes known, then yes (Enter) or no; a no is the sign-in declined. Once agreed, the authorization
 * URL is printed without the prompt again when it goes to that host for no other scope.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { terminalSignIn } from '../../../src/cli/terminalSignIn';
import { HostError } from '../../../src/core/util/errors';

function driver(answer: string) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const questions: string[] = [];
  const d = terminalSignIn({
    interactive: true,
    out,
    ask: async (q) => (questions.push(q), answer),
    openBrowser: false,
    storeHint: undefined,
  });
  return { d, text: () => text, questions };
}

const start = {
  server: 'remote',
  serverUrl: 'https://mcp.example.com/mcp',
  origin: new URL('https://login.example.net'),
  scopes: ['files:read', 'offline_access'],
  reason: 'signIn' as const,
  operation: 'request',
  signal: new AbortController().signal,
};

describe('CLI sign-in: asked before another origin is reached', () => {
  it('names the host and the scopes, and a no declines the sign-in', async () => {
    const t = driver('n');
    await assert.rejects(
      t.d.approveSignIn!(start),
      (e: unknown) => e instanceof HostError && e.kind === 'cancelled' && /declined/.test(e.message),
    );
    assert.match(t.text(), /MCP server "remote" asks you to sign in at login\.example\.net \(scopes: files:read offline_access\)\./);
    assert.match(t.questions[0], /Nothing is sent to it before you say yes \[Y\/n\]/);
  });

  it('Enter is yes', async () => {
    await answersYes('');
    await answersYes('y');
  });

  async function answersYes(answer: string) {
    const t = driver(answer);
    await t.d.approveSignIn!(start);
  }
});
