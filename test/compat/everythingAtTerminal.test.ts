/**
 * `@modelcontextprotocol/server-everything` through the built CLI in the cases a person lives through:
 * a 70 s operation under the default limits, a sampling written at a terminal (a pseudo-terminal)
 * long after the call's own limit, a URL it needs opened first (-32042) consented to at the terminal
 * and the call sent again, a research task (its refusal of a plain call, and its clarification answered
 * from --answers), and its prompts that embed a resource or complete their arguments.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { answering, cli, cliAtTerminal, freePort, jsonFile, serverCommand, startHttpServer, ROOT } from './support';

const EVERYTHING = serverCommand('@modelcontextprotocol/server-everything', 'dist/index.js');
const stdio = ['--stdio', EVERYTHING];

/** The accounting line's total and time waiting for the user, in seconds. */
function accounting(log: string): { total: number; waiting: number } {
  const m = /complete id=\S+ after \d+ round\(s\): total (\S+) s, (\S+) (m?s) waiting for the user/.exec(log);
  assert.ok(m, `no accounting line in:\n${log}`);
  return { total: Number(m[1]), waiting: m[3] === 'ms' ? Number(m[2]) / 1000 : Number(m[2]) };
}

/** Consent to both URLs of trigger-url-elicitation's error path: the prerequisite (then "done"), then the request's own. */
const consentTwice = () =>
  answering([
    { when: /Go to this URL\? .*: $/, type: 'y\n' },
    { when: /Press Enter once you are done at modelcontextprotocol\.io/, type: '\n' },
    { when: /Go to this URL\? .*: $/, type: 'y\n' },
  ]);

/** What the terminal shows for the URL-elicitation error path, consented to: the call sent again and completed. */
function assertUrlErrorPathCompleted(r: { code: number | null; stdout: string; screen: string }): void {
  assert.equal(r.code, 0, r.screen);
  assert.match(r.screen, /needs 1 URL\(s\) opened first \(URLElicitationRequiredError -32042\)/);
  assert.match(r.screen, /URL: {2}https:\/\/modelcontextprotocol\.io\n/);
  assert.equal(r.screen.match(/tools\/call trigger-url-elicitation id=/g)?.length, 2, 'sent once more after the consent');
  assert.match(r.stdout, /^✅ User completed the URL elicitation flow\.\nElicitation ID: \S+\nURL: https:\/\/example\.com\/authorize\n/);
}

describe('server-everything at a terminal and in long calls, through the CLI', function () {
  this.timeout(180_000);

  it('a 70 s trigger-long-running-operation completes under the default limits, a progress line per step', async () => {
    // No --timeout-ms nor --leg-idle-ms: the defaults (300 s, 60 s idle) with a step every 10 s.
    const r = await cli([...stdio, 'call', 'trigger-long-running-operation', '--args', '{"duration":70,"steps":7}'], {}, 150_000);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'Long running operation completed. Duration: 70 seconds, Steps: 7.');
    const steps = [...r.stderr.matchAll(/^progress (\d+)\/7$/gm)].map((m) => Number(m[1]));
    assert.deepEqual(steps, [1, 2, 3, 4, 5, 6, 7], r.stderr);
    assert.ok(accounting(r.stderr).total >= 70, r.stderr);
  });

  // The limit leaves room for server-everything's start on a loaded machine (it counts; at a load of 16 it
  // took over 3 s), and the person answers only after the whole limit has gone by.
  it('a sampling written at the terminal 17 s after it is asked, under --timeout-ms 15000: exit 0, the time answering not counted', async () => {
    let askedAt = 0;
    const r = await cliAtTerminal(
      [...stdio, '--timeout-ms', '15000', 'call', 'trigger-sampling-request', '--args', '{"prompt":"Where to go?","maxTokens":50}'],
      answering(
        [
          // The person reads the request for 17 s before answering: the scenario, not a wait for a state.
          { when: /write the reply\? \[y\]es \/ \[n\]o \(decline\): $/, type: 'y\n', afterMs: 17_000 },
          { when: /Reply, line 1 .*: $/, type: 'Paris is lovely.\n' },
          { when: /Reply, line 2 .*: $/, type: '.\n' },
          { when: /Model name .*: $/, type: '\n' },
          { when: /Stop reason .*: $/, type: '\n' },
        ],
        (i) => {
          if (i === 0) askedAt = Date.now();
        },
      ),
    );
    assert.equal(r.code, 0, r.screen);
    assert.ok(askedAt > 0);
    assert.match(r.screen, /Message 1 \(user\): Resource trigger-sampling-request context: Where to go\?\n/);
    const sent = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as unknown;
    assert.deepEqual(sent, {
      model: 'human',
      stopReason: 'endTurn',
      role: 'assistant',
      content: { type: 'text', text: 'Paris is lovely.' },
    });
    const { total, waiting } = accounting(r.screen);
    assert.ok(waiting >= 17, `waiting ${waiting} s:\n${r.screen}`);
    assert.ok(total - waiting < 15, `the counted time stays within the limit: total ${total} s, waiting ${waiting} s`);
  });

  it('trigger-url-elicitation with errorPath: true (-32042) completes after consent at the terminal, sent once more', async () => {
    const r = await cliAtTerminal(
      [...stdio, 'call', 'trigger-url-elicitation', '--args', '{"url":"https://example.com/authorize","errorPath":true}'],
      consentTwice(),
    );
    assertUrlErrorPathCompleted(r);
  });

  it('trigger-url-elicitation with errorPath: true, the URL declined: exit 1 naming it, not sent again', async () => {
    const r = await cliAtTerminal(
      [...stdio, 'call', 'trigger-url-elicitation', '--args', '{"url":"https://example.com/authorize","errorPath":true}'],
      answering([{ when: /Go to this URL\? .*: $/, type: 'n\n' }]),
    );
    assert.equal(r.code, 1, r.screen);
    assert.match(r.screen, /server-everything needs the URL https:\/\/modelcontextprotocol\.io opened before it goes on; it was declined/);
    assert.equal(r.screen.match(/tools\/call trigger-url-elicitation id=/g)?.length, 1);
  });

  it('simulate-research-query: refused as a plain call, sent again as a task and followed to its report', async () => {
    const r = await cli([...stdio, 'call', 'simulate-research-query', '--args', '{"topic":"tide pools"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.match(/→ \[server-everything\] tools\/call simulate-research-query id=/g)?.length, 2, r.stderr);
    assert.match(r.stderr, /^task \S+: working — Gathering sources\.\.\.$/m);
    assert.match(r.stdout, /^# Research Report: tide pools\n/);
    assert.doesNotMatch(r.stdout, /Clarification/);
  });

  it('simulate-research-query with ambiguous: true: its clarification answered from --answers reaches the report', async () => {
    const answers = jsonFile('answers.json', { '0': { action: 'accept', content: { interpretation: 'programming' } } });
    const r = await cli([
      ...stdio,
      'call',
      'simulate-research-query',
      '--args',
      '{"topic":"python","ambiguous":true}',
      '--answers',
      answers,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^task \S+: input_required — Found multiple interpretations for "python"/m);
    assert.match(r.stdout, /^# Research Report: python \(programming\)\n/);
    assert.match(r.stdout, /- \*\*Clarification\*\*: programming\n/);
  });

  it('resource-prompt embeds the resource it names; completable-prompt takes the completed values', async () => {
    const resource = await cli([...stdio, 'prompt', 'resource-prompt', '--args', '{"resourceType":"Text","resourceId":"4"}', '--json']);
    assert.equal(resource.code, 0, resource.stderr);
    const messages = (
      JSON.parse(resource.stdout) as { messages: { content: { type: string; text?: string; resource?: { uri: string } } }[] }
    ).messages;
    assert.equal(messages[0].content.text, 'This prompt includes the Text resource with id: 4. Please analyze the following resource:');
    assert.equal(messages[1].content.type, 'resource');
    assert.equal(messages[1].content.resource?.uri, 'demo://resource/dynamic/text/4');
    const completable = await cli([...stdio, 'prompt', 'completable-prompt', '--args', '{"department":"Engineering","name":"Bob"}']);
    assert.equal(completable.code, 0, completable.stderr);
    assert.match(completable.stdout, /Bob/);
    assert.match(completable.stdout, /Engineering/);
  });
});

describe('server-everything over Streamable HTTP at a terminal, through the CLI', function () {
  this.timeout(120_000);
  let server: ChildProcess | undefined;
  let url = '';

  before(async () => {
    const port = await freePort();
    server = await startHttpServer(
      process.execPath,
      [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
      { PORT: String(port) },
      /listening on port/,
    );
    url = `http://127.0.0.1:${port}/mcp`;
  });
  after(() => {
    server?.kill('SIGKILL');
  });

  it('trigger-url-elicitation with errorPath: true completes after consent, sent once more in the same session', async () => {
    const r = await cliAtTerminal(
      ['--http', url, 'call', 'trigger-url-elicitation', '--args', '{"url":"https://example.com/authorize","errorPath":true}'],
      consentTwice(),
    );
    assertUrlErrorPathCompleted(r);
  });

  it('simulate-research-query with ambiguous: true, its clarification pushed over HTTP and answered from --answers', async () => {
    const answers = jsonFile('answers.json', { '0': { action: 'accept', content: { interpretation: 'snake' } } });
    const r = await cli([
      '--http',
      url,
      'call',
      'simulate-research-query',
      '--args',
      '{"topic":"python","ambiguous":true}',
      '--answers',
      answers,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Research Report: python \(snake\)\n/);
  });
});
