// Types for install.mjs (plain JavaScript so that it runs with any Node >= 20 before anything is built).
export declare const DEFAULT_NODE_VERSION: string;
export declare const DEFAULT_CODE_SERVER_VERSION: string;

export declare class HostInstallError extends Error {
  /** The step that failed: 'debian-packages' | 'chromium' | 'node' | 'code-server' | 'lock' | 'cache'. */
  readonly step: string;
}

export interface HostPaths {
  /** Node 24 binary that code-server runs on. */
  nodeBin: string;
  /** Its package folder (bin/, include/): put `${nodeDir}/bin` first on PATH for code-server. */
  nodeDir: string;
  nodeVersion: string;
  /** code-server's entry script (out/node/entry.js): run it as `nodeBin codeServerBin ...`. */
  codeServerBin: string;
  codeServerDir: string;
  codeServerVersion: string;
  chromiumPath: string;
  cacheDir: string;
}

/** The cache folder: $MCP_ROUNDTRIP_CACHE, else ~/.cache/mcp-roundtrip. */
export declare function cacheDir(): string;

/** Ensures Debian's chromium and libkrb5-dev, Node 24 and code-server; installs what is missing (idempotent). */
export declare function ensureHost(options?: { quiet?: boolean }): Promise<HostPaths>;
