// Types for launch.mjs.
export interface LaunchOptions {
  /** Folder opened in the workbench. */
  workspace: string;
  /** Built extension folders, copied into the extensions dir as `<publisher>.<name>-<version>` (without node_modules). */
  extensionDirs?: string[];
  /** Also copy the extension folders' node_modules (for an extension that is not bundled). */
  includeNodeModules?: boolean;
  /** A .vsix installed with `code-server --install-extension` before the start. */
  vsix?: string;
  /** Keep workspace trust on (restricted-mode tests); default off (`--disable-workspace-trust`). */
  trust?: boolean;
  /** VS Code's display language (code-server `--locale`, e.g. `zh-cn`): accepted only with a language pack for it among `extensionDirs` (test/fixtures/zh-cn-language-pack); then the extension's package.nls.<locale>.json and l10n bundle are used. */
  locale?: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Default: a new temporary folder. */
  userDataDir?: string;
  /** Default: a new temporary folder. */
  extensionsDir?: string;
  /** Written to `<userDataDir>/User/settings.json` over DEFAULT_SETTINGS before the start. */
  settings?: Record<string, unknown>;
  /** How long to wait for code-server to answer HTTP (default 60 s). */
  startTimeoutMs?: number;
  /** Extra environment for code-server and so for the extension host. */
  env?: Record<string, string>;
  /** Default true: don't print install progress. */
  quiet?: boolean;
}

export interface CodeServerHost {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** `url` with `?folder=<workspace>` */
  workbenchUrl: string;
  port: number;
  pid: number;
  /** Temporary folder holding config.yaml and (unless given) user-data/ and extensions/. */
  root: string;
  userDataDir: string;
  extensionsDir: string;
  /** `<userDataDir>/logs`: code-server.log, and one `<timestamp>/` folder per server start with the extension host logs. */
  logsDir: string;
  /** code-server's own stdout and stderr. */
  logFile: string;
  /** `publisher.name` of each copied extension. */
  extensionIds: string[];
  /** Milliseconds from the start of code-server to its first HTTP answer (install check included). */
  startMs: number;
  /**
   * Ends code-server and everything it started (SIGTERM, then SIGKILL after `graceMs`, default 5000); idempotent
   * (options of later calls are ignored). `removeFiles` also deletes `root` (logs included; folders passed in stay).
   */
  stop(options?: { graceMs?: number; removeFiles?: boolean }): Promise<void>;
}

export declare const DEFAULT_SETTINGS: Record<string, unknown>;
export declare function freePort(): Promise<number>;
export declare function copyExtension(srcDir: string, extensionsDir: string, options?: { includeNodeModules?: boolean }): string;
export declare function launchCodeServer(options: LaunchOptions): Promise<CodeServerHost>;
