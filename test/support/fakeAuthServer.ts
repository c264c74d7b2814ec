/**
 * A hostile or broken authorization side for tests, on one loopback origin: an MCP endpoint that
 * always answers 401 with a `WWW-Authenticate` naming its protected resource metadata, that metadata,
 * authorization server metadata (overridable, or a body that is not JSON), registration, an
 * authorization endpoint whose redirect the test shapes (state, error, iss), and a token endpoint.
 * It records what the client asked for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake behaves. */
export interface FakeAuthOptions {
  /** Fields merged into the authorization server metadata (`undefined` removes one). */
  metadata?: Record<string, unknown>;
  /** A raw body for the authorization server metadata instead (e.g. HTML). */
  metadataBody?: string;
  /** Query parameters the authorization endpoint puts on its redirect instead of code/state/iss. */
  redirect?: (query: URLSearchParams) => Record<string, string>;
  /** Fields merged into the protected resource metadata; `null`: it answers 404. */
  resourceMetadata?: Record<string, unknown> | null;
  /** Fields merged into the token response (e.g. an `id_token`). */
  tokenExtra?: Record<string, unknown>;
  /** A 2025-03-26 server: no metadata of any kind (no protected resource, no authorization server metadata). */
  noMetadata?: boolean;
  /** The token endpoint's answer instead of a token (e.g. an OAuth error), by the request. */
  token?: (request: TokenRequest) => { status: number; body: unknown } | undefined;
  /** The MCP endpoint's refusal by the request's `Authorization` header (default: 401, scope files:read). */
  mcp?: (authorization: string | undefined, dpop?: string) => { status: number; wwwAuthenticate?: string };
}

/** A request the token endpoint received. */
export interface TokenRequest {
  body: URLSearchParams;
  authorization?: string;
}

/** A running fake. */
export interface FakeAuthServer {
  url: string;
  mcpUrl: string;
  /** What it received: `requests` lists every request (`GET /path`), in order. */
  seen: {
    registrations: number;
    authorizations: URLSearchParams[];
    tokenRequests: number;
    tokenBodies: TokenRequest[];
    requests: string[];
  };
  close(): Promise<void>;
}

/** Start a fake on 127.0.0.1 (any free port). */
export async function startFakeAuthServer(options: FakeAuthOptions = {}): Promise<FakeAuthServer> {
  const seen: FakeAuthServer['seen'] = { registrations: 0, authorizations: [], tokenRequests: 0, tokenBodies: [], requests: [] };
  let base = '';
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    seen.requests.push(`${req.method} ${url.pathname}`);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      switch (url.pathname) {
        case '/mcp': {
          const prm = options.noMetadata ? 'realm="mcp"' : `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
          const r = options.mcp?.(req.headers.authorization, req.headers.dpop as string | undefined) ?? {
            status: 401,
            wwwAuthenticate: `scope="files:read"`,
          };
          res.writeHead(r.status, r.wwwAuthenticate ? { 'WWW-Authenticate': `Bearer ${prm}, ${r.wwwAuthenticate}` } : {});
          return res.end();
        }
        case '/.well-known/oauth-protected-resource/mcp':
          if (options.resourceMetadata === null || options.noMetadata) break;
          return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], ...options.resourceMetadata });
        case '/.well-known/oauth-authorization-server': {
          if (options.noMetadata) break;
          if (options.metadataBody !== undefined) {
            res.writeHead(200, { 'Content-Type': 'text/html' });
            return res.end(options.metadataBody);
          }
          const md: Record<string, unknown> = {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            response_types_supported: ['code'],
            code_challenge_methods_supported: ['S256'],
            authorization_response_iss_parameter_supported: true,
            ...options.metadata,
          };
          for (const [k, v] of Object.entries(md)) if (v === undefined) delete md[k];
          return json(res, 200, md);
        }
        case '/register':
          seen.registrations++;
          return json(res, 201, { ...JSON.parse(body || '{}'), client_id: 'fake-client' });
        case '/authorize': {
          seen.authorizations.push(url.searchParams);
          const back = new URL(url.searchParams.get('redirect_uri') ?? `${base}/nowhere`);
          const query = options.redirect
            ? options.redirect(url.searchParams)
            : { code: 'fake-code', state: url.searchParams.get('state') ?? '', iss: base };
          for (const [k, v] of Object.entries(query)) back.searchParams.set(k, v);
          res.writeHead(302, { Location: back.href });
          return res.end();
        }
        case '/token': {
          seen.tokenRequests++;
          const request = { body: new URLSearchParams(body), authorization: req.headers.authorization };
          seen.tokenBodies.push(request);
          const answer = options.token?.(request);
          if (answer) return json(res, answer.status, answer.body);
          return json(res, 200, { access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 3600, ...options.tokenExtra });
        }
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    mcpUrl: `${base}/mcp`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
