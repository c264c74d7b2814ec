// Types for npmEnv.mjs (plain JavaScript so that it runs with any Node >= 20 before anything is built).

/**
 * A copy of `base` without anything an outer npm put there (every `npm_*` variable, `NODE`, `INIT_CWD`, the
 * PATH entries `npm run` adds), then `extra` on top.
 */
export declare function cleanNpmEnv(base?: NodeJS.ProcessEnv, extra?: Record<string, string>): Record<string, string>;
