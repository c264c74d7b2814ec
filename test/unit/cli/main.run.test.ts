/**
 * `mcp-roundtrip run <name>`: a saved call of `.vscode/mcp-calls.json` run as a real process: its
 * server from the workspace's `.vscode/mcp.json`, the built-in demo, or `--stdio`; its saved answers
 * (overridden by `--answers`), its arguments (overridden by `--args`); the errors and exit codes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, ensureBuilt } from '../../support/build';

const CLI = join(DIST, 'cli.js');
const BOOKING = {
  action: 'accept',
  content: {
    date: '2026-12-24',
    email: 'team@example.org',
    partySize: 4,
    outdoor: true,
    seating: 'garden',
    time: '20:00',
    dietary: ['vegan'],
  },
};

/** A workspace folder with `.vscode/mcp-calls.json` (and `.vscode/mcp.json` when `servers` is given). */
function workspace(calls: unknown, servers?: unknown): string {
  const ws = mkdtempSync(join(tmpdir(), 'mcp-rt-run-'));
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'mcp-calls.json'), typeof calls === 'string' ? calls : JSON.stringify(calls, null, 2));
  if (servers) writeFileSync(join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
  return ws;
}

const run = (cwd: string, args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('CLI run <name> (saved calls)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());
  const CALLS = {
    calls: {
      'four at eight': { server: 'demo', tool: 'book_table', arguments: { restaurant: 'Chez Test' }, answers: { booking: BOOKING } },
      'on the workspace server': {
        server: 'team-demo',
        tool: 'book_table',
        arguments: { restaurant: 'Team Place' },
        answers: { booking: { action: 'decline' } },
      },
      'ask me': { server: 'demo', tool: 'book_table' },
      note: { server: 'demo', resource: 'demo://secret-note', answers: { confirm: { action: 'accept', content: { reveal: true } } } },
    },
  };

  it('runs a saved call on the built-in demo server, with its arguments and saved answers', () => {
    const ws = workspace(CALLS);
    const r = run(ws, ['run', 'four at eight']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Table booked at Chez Test for 4 on 2026-12-24 at 20:00/);
    assert.match(r.stderr, /↳ \[demo\] round 1 booking: accept fields \[date, email, partySize, outdoor, seating, time, dietary\]/);
  });

  it("takes the server from the workspace's .vscode/mcp.json (variables substituted); --args and --answers override the saved ones", () => {
    const ws = workspace(CALLS, {
      'team-demo': { type: 'stdio', command: process.execPath, args: ['${workspaceFolder}/../demo-link.js'] },
    });
    writeFileSync(join(ws, '..', 'demo-link.js'), `require(${JSON.stringify(join(DIST, 'demo-server.js'))});`);
    const declined = run(ws, ['run', 'on the workspace server']);
    assert.equal(declined.code, 0, declined.stderr);
    assert.match(declined.stdout, /Nothing was booked: you declined the booking form for Team Place/);
    const answers = join(ws, 'answers.json');
    writeFileSync(answers, JSON.stringify({ booking: BOOKING }));
    const r = run(ws, ['run', 'on the workspace server', '--args', '{"restaurant":"Elsewhere"}', '--answers', answers]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Table booked at Elsewhere for 4/);
  });

  it("a saved call's answers fill forms only: roots are --roots (none without it) and sampling is never the file's", () => {
    const ws = workspace({
      calls: {
        where: {
          server: 'demo',
          tool: 'where_am_i',
          answers: { roots: { roots: [{ uri: 'file:///root/.ssh' }, { uri: 'file:///etc' }] } },
        },
        trip: {
          server: 'demo',
          tool: 'plan_trip',
          answers: {
            trip: { action: 'accept', content: { destination: 'Lisbon', startDate: '2026-12-01', endDate: '2026-12-04' } },
            itinerary: {
              role: 'assistant',
              content: { type: 'text', text: 'the file wrote this' },
              model: 'gpt-file',
              stopReason: 'endTurn',
            },
          },
        },
      },
    });
    // Without --roots the CLI offers no roots, whatever the file says: the server refuses the call.
    const where = run(ws, ['run', 'where']);
    assert.equal(where.code, 1, where.stderr);
    assert.match(where.stderr, /add --roots <dir>/);
    assert.doesNotMatch(where.stdout, /\.ssh|\/etc/);
    const own = mkdtempSync(join(tmpdir(), 'mcp-rt-run-roots-'));
    const mine = run(ws, ['run', 'where', '--roots', own]);
    assert.equal(mine.code, 0, mine.stderr);
    assert.ok(mine.stdout.includes(own), mine.stdout);
    assert.doesNotMatch(mine.stdout, /\.ssh|\/etc/);
    const trip = run(ws, ['run', 'trip', '--roots', own]);
    assert.equal(trip.code, 3, trip.stderr);
    assert.match(trip.stderr, /no answer for input "itinerary" \(sampling\/createMessage\)/);
    assert.doesNotMatch(trip.stdout, /the file wrote this/);
  });

  it('--calls reads another file; --stdio replaces the saved server; --json prints the result as received', () => {
    const ws = workspace({ calls: {} });
    const other = join(ws, 'shared-calls.json');
    writeFileSync(other, JSON.stringify(CALLS));
    const r = run(ws, ['run', 'note', '--calls', other, '--stdio', `"${process.execPath}" "${join(DIST, 'demo-server.js')}"`, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).contents[0].uri, 'demo://secret-note');
  });

  it('exit 2 naming what is wrong: no file, no such call (listing those there are), a broken file, an unknown server; exit 3 for an answer not saved', () => {
    const empty = mkdtempSync(join(tmpdir(), 'mcp-rt-run-none-'));
    const none = run(empty, ['run', 'x']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no saved calls: .*mcp-calls\.json does not exist/);
    const ws = workspace(CALLS);
    const unknown = run(ws, ['run', 'nope']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no saved call named "nope" .*; it has: four at eight, on the workspace server, ask me, note/);
    const broken = run(workspace('{ "calls": { "x": '), ['run', 'x']);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /mcp-calls\.json: invalid JSON at line 1/);
    const noServer = run(ws, ['run', 'on the workspace server']);
    assert.equal(noServer.code, 2);
    assert.match(noServer.stderr, /runs on server "team-demo", but there is no .*mcp\.json; give the server with --stdio or --http/);
    const missing = run(ws, ['run', 'ask me']);
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(missing.stderr, /no answer for input "booking"/);
    const usage = run(ws, ['run']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /run needs the name of a saved call/);
    assert.equal(run(ws, ['call', 'x', '--calls', 'f']).code, 2);
  });

  it("a workspace's huge mcp-calls.json or mcp.json is refused by its size before it is read (exit 2 naming the file and the limit)", () => {
    const hugeCalls = workspace('{}');
    truncateSync(join(hugeCalls, '.vscode', 'mcp-calls.json'), 6_000_000);
    const calls = run(hugeCalls, ['run', 'x']);
    assert.equal(calls.code, 2);
    assert.match(calls.stderr, /the saved calls .*mcp-calls\.json is 6000000 bytes, larger than the limit of 5000000 bytes; not read/);
    const hugeServers = workspace(CALLS, { 'team-demo': { command: 'x' } });
    truncateSync(join(hugeServers, '.vscode', 'mcp.json'), 6_000_000);
    const servers = run(hugeServers, ['run', 'on the workspace server']);
    assert.equal(servers.code, 2);
    assert.match(servers.stderr, /the server file .*mcp\.json is 6000000 bytes, larger than the limit of 5000000 bytes; not read/);
  });
});
