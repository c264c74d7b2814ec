/** The CLI's command line: what is refused as a usage error (exit 2) before anything is started. */
import assert from 'node:assert/strict';
import { parseCli, UsageError } from '../../../src/cli/args';

const usage = (argv: string[], message: RegExp) =>
  assert.throws(
    () => parseCli(argv),
    (e: unknown) => e instanceof UsageError && message.test(e.message),
    argv.join(' '),
  );

describe('CLI arguments', () => {
  it('a --header that is no header: a name with a space, a value with a line break (no header smuggled into the request)', () => {
    usage(['--http', 'http://127.0.0.1:1/mcp', '--header', 'Bad Name=v', 'tools'], /"Bad Name" is not a header name/);
    usage(['--http', 'http://127.0.0.1:1/mcp', '--header', 'X-A=a\r\nX-B: b', 'tools'], /X-A: a header value cannot hold a line break/);
    assert.deepEqual(parseCli(['--http', 'http://127.0.0.1:1/mcp', '--header', 'X-Api-Key=a=b c', 'tools']).server, {
      transport: 'http',
      name: '127.0.0.1:1',
      url: 'http://127.0.0.1:1/mcp',
      headers: { 'X-Api-Key': 'a=b c' },
      era: 'auto',
    });
  });

  it('--stdio: a quote left open is refused; quotes and escapes group words', () => {
    usage(['--stdio', "node 'unterminated", 'tools'], /the quote ' is not closed/);
    usage(['--stdio', 'node "a', 'tools'], /the quote " is not closed/);
    const server = parseCli(['--stdio', `node "a b" 'c d' e\\ f it\\'s`, 'tools']).server;
    assert.deepEqual(server?.transport === 'stdio' && [server.command, ...(server.args ?? [])], ['node', 'a b', 'c d', 'e f', "it's"]);
  });

  it('an unknown option names it and points to --help', () => {
    usage(['--bogus'], /^Unknown option '--bogus' \(see --help\)$/);
  });
});
