// Types for run.mjs (plain JavaScript so that it runs with any Node >= 20 before anything is built).

export declare class HostInstallError extends Error {
  readonly step: string;
}

/** `npm install --prefix <prefix> <spec>` in a clean npm environment; rejects with a HostInstallError. */
export declare function npmInstall(
  step: string,
  prefix: string,
  spec: string,
  options: { logFile: string; env?: Record<string, string>; prependPath?: string[] },
): Promise<string>;

/** The environment of a command the install scripts start (clean of the outer npm, npm cache in the project cache). */
export declare function installEnv(options?: { env?: Record<string, string>; prependPath?: string[] }): Record<string, string>;
