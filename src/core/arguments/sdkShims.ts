/**
 * What the build (scripts/build.mjs) bundles in place of `@modelcontextprotocol/client/_shims`: the
 * SDK's Node shims, with the host's validator provider as the default one (`sdkValidator.ts`).
 * Exports exactly what the SDK's own Node shims export (a unit test compares them).
 */
/** Node has no CORS: a failed `fetch` is a network or configuration error (as the SDK's Node shims say). */
export const CORS_IS_POSSIBLE = false;
export { HostJsonSchemaValidator as DefaultJsonSchemaValidator } from './sdkValidator';
