/** mcp.json and settings → server specs: JSONC, errors that name the file, variables. */
import assert from 'node:assert/strict';
import { parseServerFile, resolveServer, substitute, type VariableContext } from '../../../src/core/config/servers';

const src = { kind: 'workspaceFile' as const, location: '/ws/.vscode/mcp.json', workspaceFolder: '/ws' };
const ctx = (over: Partial<VariableContext> = {}): VariableContext => ({
  workspaceFolder: '/ws',
  userHome: '/home/u',
  env: { TOKEN_DIR: '/tokens' },
  resolveInput: async (id) => `input-${id}`,
  readFile: async (p) => (p === '/ws/.env' ? 'FROM_FILE=1\nSHARED=file\n' : Promise.reject(new Error(`ENOENT ${p}`))),
  ...over,
});

describe('server definitions', () => {
  it('reads JSON with comments and trailing commas, stdio and http', () => {
    const f = parseServerFile(
      `{
      // my servers
      "servers": {
        "local": { "type": "stdio", "command": "node", "args": ["srv.js"], },
        "remote": { "type": "http", "url": "https://mcp.example.test/mcp", "headers": { "Authorization": "Bearer \${input:tok}" } },
      },
      "inputs": [{ "id": "tok", "type": "promptString", "password": true, "description": "API token" }],
    }`,
      src,
    );
    assert.deepEqual(f.errors, []);
    assert.deepEqual(
      f.servers.map((s) => [s.name, s.type]),
      [
        ['local', 'stdio'],
        ['remote', 'http'],
      ],
    );
    assert.deepEqual(f.inputs, [{ id: 'tok', type: 'promptString', description: 'API token', password: true, default: undefined }]);
  });
  it('an oauth grant without a person: its secret from an input, its files from variables, the grant kept', async () => {
    const f = parseServerFile(
      `{"servers": {
        "bot": {"url": "https://mcp.example.test/mcp", "oauth": {"grant": "client_credentials", "clientId": "bot", "privateKeyFile": "\${workspaceFolder}/key.pem"}},
        "ema": {"url": "https://mcp.example.test/mcp", "oauth": {"grant": "enterprise", "clientId": "c", "clientSecret": "\${input:s}", "idpIssuer": "https://idp.example.test", "idpClientId": "i", "idTokenFile": "\${env:TOKEN_DIR}/id.jwt"}},
        "bad": {"url": "https://mcp.example.test/mcp", "oauth": {"grant": "client_credentials", "clientId": "x"}}
      }}`,
      src,
    );
    assert.deepEqual(
      f.servers.map((s) => s.name),
      ['bot', 'ema'],
    );
    assert.match(f.errors[0], /server "bad".*needs either "clientSecret" or "privateKeyFile"/);
    const bot = await resolveServer(f.servers[0], ctx());
    const ema = await resolveServer(f.servers[1], ctx());
    assert.deepEqual(bot.transport === 'http' && bot.oauth, {
      grant: 'client_credentials',
      clientId: 'bot',
      privateKeyFile: '/ws/key.pem',
    });
    assert.deepEqual(ema.transport === 'http' && ema.oauth && [ema.oauth.grant, ema.oauth.clientSecret, ema.oauth.idTokenFile], [
      'enterprise',
      'input-s',
      '/tokens/id.jwt',
    ]);
  });
  it('a broken file is reported with its path and the JSON error', () => {
    const f = parseServerFile('{ "servers": { "a": { "command": "x" } ', src);
    assert.equal(f.servers.length, 0);
    assert.match(f.errors[0], /^\/ws\/\.vscode\/mcp\.json: invalid JSON at line 1: /);
  });
  it('a bad entry is reported and the others still load', () => {
    const f = parseServerFile(
      '{"servers": {"bad": {"type": "stdio"}, "weird": {"type": "ftp", "url": "x"}, "ok": {"command": "node"}}}',
      src,
    );
    assert.deepEqual(
      f.servers.map((s) => s.name),
      ['ok'],
    );
    assert.equal(f.errors.length, 2);
    assert.match(f.errors[0], /server "bad": a stdio server needs a "command"/);
    assert.match(f.errors[1], /server "weird": unknown type "ftp"/);
  });
  it('substitutes workspaceFolder, userHome, env and input; unknown variables are errors', async () => {
    assert.equal(
      await substitute('${workspaceFolder}/a:${userHome}:${env:TOKEN_DIR}:${env:NOPE}:${input:x}', ctx()),
      '/ws/a:/home/u:/tokens::input-x',
    );
    await assert.rejects(substitute('${config:foo}', ctx()), /unknown variable \$\{config:foo\}/);
    await assert.rejects(substitute('${workspaceFolder}', ctx({ workspaceFolder: undefined })), /no workspace folder is open/);
  });
  it('asks each input once per resolution and reads envFile under env', async () => {
    let asked = 0;
    const f = parseServerFile(
      '{"servers": {"s": {"command": "${workspaceFolder}/bin", "args": ["${input:k}", "${input:k}"], "envFile": "${workspaceFolder}/.env", "env": {"SHARED": "env", "N": 3}}}}',
      src,
    );
    const spec = await resolveServer(f.servers[0], ctx({ resolveInput: async (id) => (asked++, `v-${id}`) }));
    assert.equal(asked, 1);
    assert.deepEqual(spec, {
      transport: 'stdio',
      name: 's',
      command: '/ws/bin',
      args: ['v-k', 'v-k'],
      env: { FROM_FILE: '1', SHARED: 'env', N: '3' },
      cwd: '/ws',
      era: undefined,
    });
  });
  it('an unreadable envFile names the server and the file', async () => {
    const f = parseServerFile('{"servers": {"s": {"command": "x", "envFile": "/nope/.env"}}}', src);
    await assert.rejects(resolveServer(f.servers[0], ctx()), /server "s" \(\/ws\/\.vscode\/mcp\.json\): ENOENT \/nope\/\.env/);
  });
});
