/**
 * Starts test/fixtures/oauthServer.mjs (oidc-provider in front of the demo server's tools) and reads
 * where it listens; `stop()` ends it by its pid. Needs dist/ built (it runs dist/demo-server.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { ROOT } from './build';

/** A running fixture. */
export interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  adminUrl: string;
  /** A client registered for the client_credentials grant, and its secret. */
  ciClient: { id: string; secret: string };
  /** The access tokens the resource server accepted. */
  tokens(): Promise<string[]>;
  /** Counts: registrations, authorizations, tokenRequests, refreshes, refused, accepted, dpopProofs (checked and good). */
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Start the fixture (`--auto-consent` unless `interactive`; `tokenTtl` in seconds; `dpop`: DPoP-bound tokens only). */
export async function startOAuthFixture(options: { interactive?: boolean; tokenTtl?: number; dpop?: boolean } = {}): Promise<OAuthFixture> {
  const args = [
    join(ROOT, 'test', 'fixtures', 'oauthServer.mjs'),
    ...(options.interactive ? [] : ['--auto-consent']),
    ...(options.tokenTtl ? ['--token-ttl', String(options.tokenTtl)] : []),
    ...(options.dpop ? ['--dpop'] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const where = await new Promise<{ issuer: string; mcpUrl: string; adminUrl: string; ciClient: { id: string; secret: string } }>(
    (resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /^oauth-fixture: (.+)$/m.exec(out);
        if (m) resolve(JSON.parse(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`the OAuth fixture exited (${code}): ${err}`)));
    },
  );
  // A connection of its own each time: a test blocked in spawnSync past the server's keep-alive time
  // would otherwise send its next request on a pooled socket the server has closed ("other side closed").
  const get = (path: string) =>
    new Promise<unknown>((resolve, reject) => {
      httpGet(`${where.adminUrl}/${path}`, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body));
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      }).on('error', reject);
    });
  return {
    ...where,
    tokens: async () => ((await get('tokens')) as { accepted: string[] }).accepted,
    stats: async () => (await get('stats')) as Record<string, number>,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
