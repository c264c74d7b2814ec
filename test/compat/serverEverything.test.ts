/**
 * `@modelcontextprotocol/server-everything` (the reference server, 2025-era) through the CLI, over stdio
 * and over its Streamable HTTP transport: its real answers to tools, prompts and resources, and the
 * requests it pushes (elicitation, sampling, roots) answered from `--answers` and `--roots`.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { cli, freePort, json, jsonFile, serverCommand, startHttpServer, tempDir, ROOT } from './support';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const EVERYTHING = serverCommand('@modelcontextprotocol/server-everything', 'dist/index.js');
const stdio = ['--stdio', EVERYTHING];

/** Every tool the server lists to a client that declares elicitation, sampling and roots. */
const TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-roots-list',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-elicitation-request',
  'trigger-long-running-operation',
  'trigger-sampling-request',
  'trigger-url-elicitation',
];

describe('server-everything over stdio, through the CLI', function () {
  this.timeout(120_000);

  it('lists every tool (get-roots-list only with --roots) and prompt it has, and its static resources', async () => {
    // It offers get-roots-list only to a client that declares roots: the CLI does with --roots.
    const tools = await cli([...stdio, '--roots', tempDir('roots'), 'tools', '--json']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.deepEqual((json(tools) as { name: string }[]).map((t) => t.name).sort(), TOOLS);
    const withoutRoots = await cli([...stdio, 'tools', '--json']);
    assert.deepEqual(
      (json(withoutRoots) as { name: string }[]).map((t) => t.name).sort(),
      TOOLS.filter((name) => name !== 'get-roots-list'),
    );
    const prompts = await cli([...stdio, 'prompts', '--json']);
    assert.deepEqual((json(prompts) as { name: string }[]).map((p) => p.name).sort(), [
      'args-prompt',
      'completable-prompt',
      'resource-prompt',
      'simple-prompt',
    ]);
    const resources = await cli([...stdio, 'resources']);
    assert.match(resources.stdout, /^architecture\.md\tdemo:\/\/resource\/static\/document\/architecture\.md/m);
  });

  it('echo and get-sum answer with their text', async () => {
    const echo = await cli([...stdio, 'call', 'echo', '--args', '{"message":"round trip ✓"}']);
    assert.equal(echo.code, 0, echo.stderr);
    assert.equal(echo.stdout.trim(), 'Echo: round trip ✓');
    const sum = await cli([...stdio, 'call', 'get-sum', '--args', '{"a":2,"b":3.5}']);
    assert.equal(sum.stdout.trim(), 'The sum of 2 and 3.5 is 5.5.');
  });

  it('get-structured-content returns structured content matching its output schema', async () => {
    const r = await cli([...stdio, 'call', 'get-structured-content', '--args', '{"location":"New York"}', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((json(r) as { structuredContent: unknown }).structuredContent, {
      temperature: 33,
      conditions: 'Cloudy',
      humidity: 82,
    });
    const shown = await cli([...stdio, 'call', 'get-structured-content', '--args', '{"location":"New York"}']);
    assert.equal(
      shown.stdout.match(/"temperature"/g)?.length,
      1,
      `the structured content that repeats the text is shown once:\n${shown.stdout}`,
    );
  });

  it('get-tiny-image returns a PNG block, named rather than dumped', async () => {
    const r = await cli([...stdio, 'call', 'get-tiny-image']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\[image image\/png, \d+ bytes\]$/m);
    assert.doesNotMatch(r.stdout, /iVBORw0KGgo/, 'the base64 is not printed');
  });

  it('get-annotated-message and get-resource-reference answer with their content', async () => {
    const annotated = await cli([...stdio, 'call', 'get-annotated-message', '--args', '{"messageType":"success"}', '--json']);
    const blocks = (json(annotated) as { content: { text?: string; annotations?: { priority?: number } }[] }).content;
    assert.equal(blocks[0].text, 'Operation completed successfully');
    assert.equal(typeof blocks[0].annotations?.priority, 'number');
    const reference = await cli([...stdio, 'call', 'get-resource-reference', '--args', '{"resourceType":"Text","resourceId":2}']);
    assert.match(reference.stdout, /^\[resource demo:\/\/resource\/dynamic\/text\/2\]$/m);
  });

  it('its resource templates are listed, one is read by filling its variable, and completion suggests values', async () => {
    const templates = await cli([...stdio, 'templates']);
    assert.equal(templates.code, 0, templates.stderr);
    assert.match(templates.stdout, /^Dynamic Text Resource\tdemo:\/\/resource\/dynamic\/text\/\{resourceId\}/m);
    const read = await cli([...stdio, 'read', 'demo://resource/dynamic/text/{resourceId}', '--args', '{"resourceId":"7"}']);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^Resource 7: This is a plaintext resource created at /m);
    const department = await cli([...stdio, 'complete', 'prompt', 'completable-prompt', 'department', 'Eng']);
    assert.equal(department.stdout, 'Engineering\n');
    const names = await cli([...stdio, 'complete', 'prompt', 'completable-prompt', 'name', '--context', '{"department":"Engineering"}']);
    assert.deepEqual(names.stdout.trim().split('\n'), ['Alice', 'Bob', 'Charlie']);
  });

  it('a long-running operation longer than the leg idle limit completes, its progress on stderr', async () => {
    // 4 s in all, progress every 0.25 s: the leg lives on its progress, 8 times inside the 2 s idle limit.
    const args = ['call', 'trigger-long-running-operation', '--args', '{"duration":4,"steps":16}'];
    const r = await cli([...stdio, '--leg-idle-ms', '2000', ...args]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'Long running operation completed. Duration: 4 seconds, Steps: 16.');
    const steps = [...r.stderr.matchAll(/^progress (\d+)\/16/gm)].map((m) => Number(m[1]));
    // One line per update, in order (the last may come with the result, after the CLI is done).
    assert.deepEqual(
      steps,
      Array.from({ length: steps.length }, (_, i) => i + 1),
    );
    assert.ok(steps.length >= 15, `progress lines: ${steps.join(' ')}`);
  });

  it('a resource of a template is read by its URI', async () => {
    const r = await cli([...stdio, 'read', 'demo://resource/dynamic/text/3']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Resource 3: This is a plaintext resource created at /m);
  });

  it('prompts: simple-prompt and args-prompt', async () => {
    const simple = await cli([...stdio, 'prompt', 'simple-prompt']);
    assert.match(simple.stdout, /This is a simple prompt without arguments\./);
    const args = await cli([...stdio, 'prompt', 'args-prompt', '--args', '{"city":"Lisbon","state":"Estremadura"}']);
    assert.equal(args.code, 0, args.stderr);
    assert.match(args.stdout, /Lisbon/);
  });

  it('a short long-running operation completes', async () => {
    const r = await cli([...stdio, 'call', 'trigger-long-running-operation', '--args', '{"duration":1,"steps":2}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'Long running operation completed. Duration: 1 seconds, Steps: 2.');
  });

  it('get-roots-list returns exactly the --roots directories', async () => {
    const [a, b] = [tempDir('root-a'), tempDir('root-b')];
    const r = await cli([...stdio, 'call', 'get-roots-list', '--roots', a, '--roots', b]);
    assert.equal(r.code, 0, r.stderr);
    const uris = [...r.stdout.matchAll(/file:\/\/\S+/g)].map((m) => m[0].replace(/[),.]+$/, ''));
    assert.deepEqual([...new Set(uris)].sort(), [pathToFileURL(a).href, pathToFileURL(b).href].sort());
  });

  it('its pushed elicitation is answered from --answers, and the server gets the content', async () => {
    const answers = jsonFile('answers.json', { '0': { action: 'accept', content: { name: 'Ada Lovelace', check: true } } });
    const r = await cli([...stdio, 'call', 'trigger-elicitation-request', '--answers', answers]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /- Name: Ada Lovelace\n- Agreed to terms: true/);
  });

  it('its pushed sampling request is answered from --answers, and the server gets the reply', async () => {
    const reply = { role: 'assistant', content: { type: 'text', text: 'Paris is lovely.' }, model: 'compat-model', stopReason: 'endTurn' };
    const answers = jsonFile('answers.json', { '0': reply });
    const r = await cli([
      ...stdio,
      'call',
      'trigger-sampling-request',
      '--args',
      '{"prompt":"Where to go?","maxTokens":50}',
      '--answers',
      answers,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const sent = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as unknown;
    assert.deepEqual(sent, {
      model: 'compat-model',
      stopReason: 'endTurn',
      role: 'assistant',
      content: { type: 'text', text: 'Paris is lovely.' },
    });
  });

  it('get-resource-links, gzip-file-as-resource (a data URI) and get-env answer with their content', async () => {
    const links = await cli([...stdio, 'call', 'get-resource-links', '--args', '{"count":2}']);
    assert.equal(links.code, 0, links.stderr);
    assert.match(links.stdout, /^\[link\] Blob Resource 1 <demo:\/\/resource\/dynamic\/blob\/1> \(text\/plain\)$/m);
    assert.match(links.stdout, /^\[link\] Text Resource 2 <demo:\/\/resource\/dynamic\/text\/2> \(text\/plain\)$/m);
    const data = `data:text/plain;base64,${Buffer.from('hello gzip').toString('base64')}`;
    const gz = await cli([
      ...stdio,
      'call',
      'gzip-file-as-resource',
      '--args',
      JSON.stringify({ name: 'h.gz', data, outputType: 'resource' }),
      '--json',
    ]);
    assert.equal(gz.code, 0, gz.stderr);
    const [block] = (json(gz) as { content: { resource: { uri: string; mimeType: string; blob: string } }[] }).content;
    assert.equal(block.resource.uri, 'demo://resource/session/h.gz');
    assert.equal(gunzipSync(Buffer.from(block.resource.blob, 'base64')).toString(), 'hello gzip');
    const env = await cli([...stdio, 'call', 'get-env', '--json'], { MCP_ROUNDTRIP_COMPAT_MARK: 'seen by the server' });
    const printed = JSON.parse((json(env) as { content: { text: string }[] }).content[0].text) as Record<string, string>;
    assert.equal(printed.MCP_ROUNDTRIP_COMPAT_MARK, 'seen by the server');
  });

  it('toggle-simulated-logging and toggle-subscriber-updates start their simulations', async () => {
    const logging = await cli([...stdio, 'call', 'toggle-simulated-logging']);
    assert.equal(logging.code, 0, logging.stderr);
    assert.match(logging.stdout, /^Started simulated, random-leveled logging/);
    const updates = await cli([...stdio, 'call', 'toggle-subscriber-updates']);
    assert.match(updates.stdout, /^Started simulated resource updated notifications/);
  });

  it('a missing tool is the server error it names (exit 1)', async () => {
    const r = await cli([...stdio, 'call', 'no-such-tool']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no-such-tool/);
  });
});

describe('server-everything over Streamable HTTP, through the CLI', function () {
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

  it('lists its tools and calls echo and get-sum', async () => {
    const tools = await cli(['--http', url, '--roots', tempDir('roots'), 'tools', '--json']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.deepEqual((json(tools) as { name: string }[]).map((t) => t.name).sort(), TOOLS);
    const echo = await cli(['--http', url, 'call', 'echo', '--args', '{"message":"over http"}']);
    assert.equal(echo.stdout.trim(), 'Echo: over http');
    const sum = await cli(['--http', url, 'call', 'get-sum', '--args', '{"a":40,"b":2}']);
    assert.equal(sum.stdout.trim(), 'The sum of 40 and 2 is 42.');
  });

  it('its elicitation, pushed over the HTTP stream, is answered from --answers', async () => {
    const answers = jsonFile('answers.json', { '0': { action: 'accept', content: { name: 'Grace Hopper', check: false } } });
    const r = await cli(['--http', url, 'call', 'trigger-elicitation-request', '--answers', answers]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /- Name: Grace Hopper\n- Agreed to terms: false/);
  });
});
