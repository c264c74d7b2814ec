/**
 * The CLI contract, run as a real process against the bundled demo server and the scripted server:
 * results on stdout, one log line per leg on stderr, exit codes 0/1/2/3/4/130.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, ROOT, ensureBuilt } from '../../support/build';

const CLI = join(DIST, 'cli.js');
const DEMO = `"${process.execPath}" "${join(DIST, 'demo-server.js')}"`;
const SCRIPTED = (scenario: string) =>
  `"${join(ROOT, 'node_modules', '.bin', 'tsx')}" "${join(ROOT, 'test', 'fixtures', 'scriptedServer.ts')}" ${scenario}`;
const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-cli-'));
const file = (name: string, value: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(value));
  return p;
};
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split('\n').filter(Boolean) };
};

const TRIP = {
  trip: { action: 'accept', content: { destination: 'Lisbon', startDate: '2026-12-01', endDate: '2026-12-04' } },
  itinerary: { role: 'assistant', content: { type: 'text', text: 'Day 1: Alfama.' }, model: 'scripted-model', stopReason: 'endTurn' },
};

describe('CLI', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('a --roots that is no directory here is sent as given, with a warning naming it', () => {
    const r = run(['--stdio', DEMO, 'call', 'where_am_i', '--roots', '/nonexistent-dir-of-mcp-roundtrip', '--roots', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: --roots \/nonexistent-dir-of-mcp-roundtrip is not a directory here; it is sent as given/);
    assert.doesNotMatch(r.stderr, new RegExp(`warning: --roots ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(r.stdout, /nonexistent-dir-of-mcp-roundtrip/);
  });

  it('completes a three-round MRTR call with scripted answers, one stderr line per leg', () => {
    const r = run(['--stdio', DEMO, 'call', 'plan_trip', '--answers', file('trip.json', TRIP), '--roots', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Trip to Lisbon/);
    assert.match(r.stdout, /scripted-model/);
    assert.ok(r.stdout.includes(new URL(`file://${dir}`).href), 'the root answered is the --roots directory');
    // request, then per round: input_required, answer, retry; then complete.
    assert.equal(r.lines.length, 1 + 3 * 3 + 1, r.stderr);
    assert.match(r.lines[0], /^→ .* tools\/call plan_trip id=/);
    assert.deepEqual(
      r.lines.filter((l) => l.startsWith('← ') && l.includes('input_required')).map((l) => /: (\w+) \(/.exec(l)![1]),
      ['trip', 'itinerary', 'roots'],
    );
    assert.equal(r.lines.filter((l) => l.includes('echo exact')).length, 2);
    assert.match(r.lines[r.lines.length - 1], /^← .* complete id=\d+ after 3 round\(s\)/);
  });

  it('--json prints the result object as received', () => {
    const r = run(['--stdio', DEMO, 'call', 'busy_report', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.resultType, 'complete');
    assert.ok(Array.isArray(result.content));
  });

  it('lists tools, prompts and resources', () => {
    const tools = run(['--stdio', DEMO, 'tools']);
    assert.equal(tools.code, 0);
    for (const t of ['book_table', 'plan_trip', 'connect_account', 'busy_report', 'ask_until_valid', 'echo_state'])
      assert.match(tools.stdout, new RegExp(`^${t}\\t`, 'm'));
    assert.match(run(['--stdio', DEMO, 'prompts']).stdout, /^code_review/m);
    assert.match(run(['--stdio', DEMO, 'resources']).stdout, /demo:\/\/secret-note/);
  });

  it('reads a resource and gets a prompt through MRTR', () => {
    const read = run([
      '--stdio',
      DEMO,
      'read',
      'demo://secret-note',
      '--answers',
      file('note.json', { confirm: { action: 'accept', content: { reveal: true } } }),
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.ok(read.lines.some((l) => l.includes('confirm (elicitation/create)')));
    const prompt = run([
      '--stdio',
      DEMO,
      'prompt',
      'code_review',
      '--args',
      '{"code":"let x = 1"}',
      '--answers',
      file('review.json', { review_options: { action: 'accept', content: { language: 'typescript', strictness: 'strict' } } }),
    ]);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /## user/);
  });

  describe('drives every demo tool, the prompt and the resource to completion', () => {
    const ALL = {
      ...TRIP,
      booking: {
        action: 'accept',
        content: {
          date: '2026-12-24',
          email: 'guest@example.org',
          partySize: 3,
          outdoor: false,
          seating: 'bar',
          time: '19:30',
          dietary: ['vegan'],
        },
      },
      connect: { action: 'accept' },
      code: { action: 'accept', content: { code: 'racecar' } },
      continue: { action: 'accept', content: { ok: true } },
      review_options: { action: 'accept', content: { language: 'go', strictness: 'gentle' } },
      confirm: { action: 'accept', content: { reveal: true } },
    };
    const calls: [string[], RegExp][] = [
      [['call', 'book_table'], /partySize: 3 \(number\)/],
      [['call', 'plan_trip'], /Trip to Lisbon/],
      [['call', 'connect_account'], /Connected/],
      [['call', 'busy_report'], /is ready/],
      [['call', 'ask_until_valid'], /Accepted code "racecar"/],
      [['call', 'echo_state'], /\S/],
      [['call', 'where_am_i'], /file:\/\//],
      [['prompt', 'code_review', '--args', '{"code":"fmt.Println(1)"}'], /## user/],
      [['read', 'demo://secret-note'], /\S/],
    ];
    for (const transport of ['stdio', 'http'] as const) {
      it(`over ${transport}`, async () => {
        const answers = file(`all-${transport}.json`, ALL);
        let server: ReturnType<typeof spawn> | undefined;
        let target: string[];
        if (transport === 'stdio') target = ['--stdio', DEMO];
        else {
          server = spawn(process.execPath, [join(DIST, 'demo-server.js'), '--http', '0']);
          const url = await new Promise<string>((resolve, reject) => {
            let buf = '';
            server!.stderr!.on('data', (d) => {
              buf += d;
              const m = /listening on (http:\/\/\S+)/.exec(buf);
              if (m) resolve(m[1]);
            });
            server!.on('exit', () => reject(new Error(`demo exited: ${buf}`)));
          });
          target = ['--http', url];
        }
        try {
          for (const [args, expected] of calls) {
            const r = run([...target, ...args, '--answers', answers, '--roots', dir]);
            assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
            assert.match(r.stdout, expected, args.join(' '));
            assert.match(
              r.lines[r.lines.length - 1],
              /complete id=\S+ after [1-9]\d* round\(s\)/,
              `${args.join(' ')} went through at least one round`,
            );
          }
        } finally {
          server?.kill();
        }
      });
    }
  });

  it('exit 3 names the key and method of a missing answer', () => {
    const r = run(['--stdio', DEMO, 'call', 'plan_trip', '--answers', file('none.json', {}), '--roots', dir]);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /no answer for input "trip" \(elicitation\/create\)/);
  });

  it('without --roots no roots are offered: a tool that needs them is refused by the server, and the CLI says to add --roots (exit 1)', () => {
    const r = run(['--stdio', DEMO, 'call', 'where_am_i']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /-32021.*needs client capabilities this request did not declare: roots/);
    assert.match(r.stderr, /the CLI offers roots only when given: add --roots <dir>/);
  });

  it('exit 4 when the round limit is reached', () => {
    const r = run([
      '--stdio',
      DEMO,
      'call',
      'ask_until_valid',
      '--max-rounds',
      '2',
      '--answers',
      file('bad.json', { code: { action: 'accept', content: { code: 'abcdef' } } }),
    ]);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /after 2 round\(s\)/);
  });

  it('exit 1 naming the command when the server cannot be started, also when the start throws (ENOTDIR)', () => {
    const missing = run(['--stdio', join(dir, 'no-such-server'), 'call', 't']);
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stderr, /its command \S+no-such-server could not be started: it was not found .*\(ENOENT\)/);
    // A path through a file: spawn throws at once instead of emitting its error.
    const notDir = run(['--stdio', join(file('plain.json', {}), 'server'), 'call', 't']);
    assert.equal(notDir.code, 1, notDir.stderr);
    assert.match(
      notDir.stderr,
      /its command \S+plain\.json\/server could not be started: part of its path is a file, not a folder \(ENOTDIR\)/,
    );
    assert.doesNotMatch(notDir.stderr, /\n\s+at /, 'no stack trace');
  });

  it('exit 1 with the JSON-RPC code on a server error', () => {
    const r = run(['--stdio', DEMO, 'call', 'no_such_tool']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /JSON-RPC -32602|error -32602/);
  });

  it('exit 2 on usage errors, naming what was wrong', () => {
    const cases: [string[], RegExp][] = [
      [['call', 'x'], /exactly one of --stdio/],
      [['--stdio', 'x', '--http', 'http://a', 'tools'], /exactly one of/],
      [['--stdio', 'x', 'call'], /call needs a tool name/],
      [['--stdio', 'x', 'call', 't', '--args', '{bad'], /--args is not valid JSON/],
      [['--stdio', 'x', '--era', 'future', 'tools'], /--era must be auto, modern or legacy/],
      [['--stdio', 'x', 'frobnicate'], /unknown command "frobnicate"/],
      [['--stdio', 'a | b', 'tools'], /without shell operators/],
      [['--http', 'ftp://x', 'tools'], /http\(s\) URL/],
      [['--stdio', 'x', 'tools', '--max-rounds', 'abc'], /--max-rounds needs a whole number/],
      [['--stdio', 'x', 'tools', '--timeout-ms', '0'], /--timeout-ms needs a whole number from 1 to 2147483647, got "0"/],
      [['--stdio', 'x', 'tools', '--timeout-ms', '2147483648'], /--timeout-ms needs a whole number from 1 to 2147483647/],
      [['--stdio', 'x', 'tools', '--max-rounds', ''], /--max-rounds needs a whole number from 0 to/],
      [['--stdio', 'x', 'tools', '--max-rounds', '0x10'], /--max-rounds needs a whole number/],
      [['--stdio', 'x', 'tools', '--max-rounds', '1e3'], /--max-rounds needs a whole number/],
    ];
    for (const [args, pattern] of cases) {
      const r = run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.match(r.stderr, /usage: mcp-roundtrip/);
    }
  });

  it('exit 130 on SIGINT, and the server is told the request was cancelled', async () => {
    const record = join(dir, 'sigint.jsonl');
    const child = spawn(process.execPath, [CLI, '--stdio', SCRIPTED('silent'), 'call', 'x'], {
      env: { ...process.env, RECORD_FILE: record },
    });
    let err = '';
    const sent = new Promise<void>((resolve) => child.stderr.on('data', (d) => ((err += d), err.includes('→ [') && resolve())));
    await sent;
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 130, err);
    assert.match(err, /cancelled/);
  });

  it('works over Streamable HTTP against the demo server', async () => {
    const server = spawn(process.execPath, [join(DIST, 'demo-server.js'), '--http', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let buf = '';
        server.stderr.on('data', (d) => {
          buf += d;
          const m = /listening on (http:\/\/\S+)/.exec(buf);
          if (m) resolve(m[1]);
        });
        server.on('exit', () => reject(new Error(`demo exited: ${buf}`)));
      });
      const r = run(['--http', url, 'call', 'book_table', '--answers', file('book.json', { booking: { action: 'decline' } })]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /nothing was booked|not booked|declined/i);
    } finally {
      server.kill();
    }
  });
});
