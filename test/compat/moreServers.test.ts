/**
 * Other servers people run, through the CLI: `@modelcontextprotocol/server-filesystem` (the directories
 * it is started with), `@modelcontextprotocol/server-memory` (a knowledge graph kept in a file across
 * server processes) and an MCP Apps example server,
 * `@modelcontextprotocol/server-basic-vanillajs` (a tool with an interface, whose text result is what
 * a host without apps shows).
 */
import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cli, json, serverCommand, tempDir } from './support';

describe('server-filesystem through the CLI', function () {
  this.timeout(120_000);

  it('keeps the directory it was started with (the CLI offers no roots unless --roots): lists it and reads a file in it', async () => {
    const dir = realpathSync(tempDir('fs'));
    writeFileSync(path.join(dir, 'note.txt'), 'kept in its own directory\n');
    const fs = ['--stdio', serverCommand('@modelcontextprotocol/server-filesystem', 'dist/index.js', JSON.stringify(dir))];
    const allowed = await cli([...fs, 'call', 'list_allowed_directories']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout.trim(), `Allowed directories:\n${dir}`);
    const read = await cli([...fs, 'call', 'read_text_file', '--args', JSON.stringify({ path: path.join(dir, 'note.txt') })]);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout.trim(), 'kept in its own directory');
    const outside = await cli([...fs, 'call', 'read_text_file', '--args', '{"path":"/etc/hostname"}']);
    assert.equal(outside.code, 1);
    assert.match(outside.stdout + outside.stderr, /outside allowed directories/i);
  });
});

describe('server-memory through the CLI', function () {
  this.timeout(120_000);
  const memory = ['--stdio', serverCommand('@modelcontextprotocol/server-memory', 'dist/index.js')];

  it('keeps what one server process was told for the next one, and searches it', async () => {
    const env = { MEMORY_FILE_PATH: path.join(tempDir('memory'), 'memory.jsonl') };
    const entities = [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }];
    const created = await cli([...memory, 'call', 'create_entities', '--args', JSON.stringify({ entities })], env);
    assert.equal(created.code, 0, created.stderr);
    const graph = await cli([...memory, 'call', 'read_graph', '--json'], env);
    assert.equal(graph.code, 0, graph.stderr);
    const structured = (json(graph) as { structuredContent: { entities: { name: string; observations: string[] }[] } }).structuredContent;
    assert.deepEqual(
      structured.entities.map((e) => [e.name, e.observations]),
      [['Ada', ['wrote the first program']]],
    );
    const found = await cli([...memory, 'call', 'search_nodes', '--args', '{"query":"program"}', '--json'], env);
    assert.deepEqual(
      (json(found) as { structuredContent: { entities: { name: string }[] } }).structuredContent.entities.map((e) => e.name),
      ['Ada'],
    );
  });
});

describe('an MCP Apps example server (basic-vanillajs) through the CLI', function () {
  this.timeout(120_000);
  const app = ['--stdio', serverCommand('@modelcontextprotocol/server-basic-vanillajs', 'dist/index.js', '--stdio')];

  it('lists its tool with the interface it ships, and the interface as a resource', async () => {
    const tools = await cli([...app, 'tools', '--json']);
    assert.equal(tools.code, 0, tools.stderr);
    const listed = json(tools) as { name: string; _meta?: { ui?: { resourceUri?: string } } }[];
    const getTime = listed.find((t) => t.name === 'get-time');
    assert.equal(getTime?._meta?.ui?.resourceUri, 'ui://get-time/mcp-app.html');
    const read = await cli([...app, 'read', 'ui://get-time/mcp-app.html', '--json']);
    assert.equal(read.code, 0, read.stderr);
    const [content] = (json(read) as { contents: { mimeType?: string; text?: string }[] }).contents;
    assert.equal(content.mimeType, 'text/html;profile=mcp-app');
    assert.match(content.text ?? '', /<html/i);
  });

  it('its tool answers with the text fallback a host without apps shows', async () => {
    const r = await cli([...app, 'call', 'get-time']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.trim(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });
});
