// The host installs (Node 24, code-server) run npm inside `npm test` / `npm start`. code-server's postinstall
// reads the Node major from `npm_config_user_agent`; an outer npm's value ("node/v20") made the first install
// on every fresh machine fail. These tests run the real install path with a stand-in `npm` that records the
// environment it was given.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The host scripts are plain ES modules (they run before anything is built): loaded as such.
const npmEnvModule = () => import('../../../scripts/host/npmEnv.mjs');
const runModule = () => import('../../../scripts/host/run.mjs');

/** What an outer `npm run` puts into the environment of its script (read off npm 11 on Node 20). */
const OUTER_NPM = {
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_config_nodedir: '/usr',
  npm_config_cache: '/root/.npm',
  npm_node_execpath: '/usr/bin/node',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_lifecycle_event: 'test',
  npm_package_name: 'mcp-roundtrip',
  npm_command: 'run',
  NPM_CONFIG_LOGLEVEL: 'warn',
  NODE: '/usr/bin/node',
  INIT_CWD: '/work/main',
};

describe('host installs: a clean npm environment', () => {
  const saved: Record<string, string | undefined> = {};
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'npm-env-'));
    for (const k of [...Object.keys(OUTER_NPM), 'PATH', 'MCP_ROUNDTRIP_CACHE']) saved[k] = process.env[k];
    Object.assign(process.env, OUTER_NPM);
    process.env.PATH = [
      '/work/main/node_modules/.bin',
      '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
      '/usr/bin',
      '/bin',
    ].join(path.delimiter);
    process.env.MCP_ROUNDTRIP_CACHE = path.join(dir, 'cache');
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('the npm an install runs sees no variable of the outer npm, only what the script sets on purpose', async () => {
    const bin = path.join(dir, 'bin');
    const record = path.join(dir, 'env.json');
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, 'npm'),
      `#!/bin/sh\nexec "${process.execPath}" -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.env))' "${record}"\n`,
    );
    chmodSync(path.join(bin, 'npm'), 0o755);
    writeFileSync(path.join(dir, 'package.json'), '{}');
    const { npmInstall } = await runModule();
    await npmInstall('test', dir, 'nothing@1', {
      logFile: path.join(dir, 'install.log'),
      prependPath: [bin],
      env: { npm_config_nodedir: '/opt/node24' },
    });
    // The install has settled: its log is complete (it is read, or removed, at once).
    assert.match(readFileSync(path.join(dir, 'install.log'), 'utf8'), /\$ npm install --prefix .* nothing@1\n/);
    const seen = JSON.parse(readFileSync(record, 'utf8')) as Record<string, string>;
    assert.equal(seen.npm_config_user_agent, undefined, 'the outer npm_config_user_agent (node/v20) reached the inner install');
    const leaked = Object.keys(seen).filter((k) => /^npm_/i.test(k) && !['npm_config_nodedir', 'npm_config_cache'].includes(k));
    assert.deepEqual(leaked, []);
    assert.equal(seen.NODE, undefined);
    assert.equal(seen.INIT_CWD, undefined);
    // Set on purpose: the headers of the Node the install builds for, and the project cache's own npm cache.
    assert.equal(seen.npm_config_nodedir, '/opt/node24');
    assert.equal(seen.npm_config_cache, path.join(dir, 'cache', 'npm'));
    assert.deepEqual(seen.PATH.split(path.delimiter), [bin, '/usr/bin', '/bin']);
  });

  it('cleanNpmEnv keeps everything else and does not change its input', async () => {
    const { cleanNpmEnv } = await npmEnvModule();
    const base = { ...OUTER_NPM, HOME: '/root', LANG: 'C.UTF-8', PATH: `/p/node_modules/.bin${path.delimiter}/usr/bin` };
    const env = cleanNpmEnv(base, { npm_config_nodedir: '/n' });
    assert.deepEqual(env, { HOME: '/root', LANG: 'C.UTF-8', PATH: '/usr/bin', npm_config_nodedir: '/n' });
    assert.equal(base.npm_config_user_agent, OUTER_NPM.npm_config_user_agent);
  });
});
