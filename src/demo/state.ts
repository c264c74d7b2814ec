// Signed, bound requestState: the only memory a flow has between rounds (the server keeps none).
import { createHash } from 'node:crypto';
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import type { DemoConfig } from './config';
import { isPlainObject } from '../core/util/json';

/** The three request methods that may answer `input_required` (MCP 2026-07-28, MRTR). */
export type MrtrMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/**
 * What a `requestState` is bound to: the method, the tool/prompt name or resource URI, and the
 * arguments. State minted for one target is refused on any other.
 */
export interface StateTarget {
  readonly method: MrtrMethod;
  /** Tool or prompt name, or the resource URI for `resources/read`. */
  readonly name: string;
  /** The call's arguments (`{}` when there are none). */
  readonly args: unknown;
}

/** Why an echoed `requestState` was refused; sent as `error.data.reason` next to -32602. */
export type StateRefusal = 'tampered' | 'expired' | 'other_request';

/**
 * Mints and verifies the `requestState` of one request.
 *
 * `mint` signs `payload` (HMAC-SHA256, signed not encrypted: keep secrets out) with an expiry and
 * the target's binding. `verify` returns the payload or throws a `ProtocolError` -32602 whose
 * message says which check failed and whose `data` is `{ reason: StateRefusal }`.
 */
export interface BoundStateCodec<S> {
  mint(payload: S, ctx: ServerContext): Promise<string>;
  verify(state: string, ctx: ServerContext): Promise<S>;
}

/**
 * The binding string of a target: method, name and the SHA-256 of the canonical JSON of the
 * arguments (sorted keys, so key order on the wire does not matter).
 */
export function bindingOf(target: StateTarget): string {
  const digest = createHash('sha256')
    .update(canonicalJson(target.args ?? {}))
    .digest('hex');
  return `${target.method}\n${target.name}\n${digest}`;
}

/**
 * Creates the codec for one request. The SDK's `createRequestStateCodec` is built per request so
 * its `bind` callback can return this target's binding: the SDK context does not carry the tool
 * name or arguments, so `bind(ctx)` alone could not tell two tools apart.
 *
 * The SDK codec throws opaque reason codes (`malformed`, `mac`, `expired`, `bind`) and the SDK's
 * own `requestState.verify` hook answers every failure with one frozen message, so the demo
 * verifies here instead and says which of the three it was.
 */
export function createBoundStateCodec<S>(config: DemoConfig, target: StateTarget): BoundStateCodec<S> {
  const binding = bindingOf(target);
  const codec = createRequestStateCodec<S>({ key: config.key, ttlSeconds: config.ttlSeconds, bind: () => binding });
  return {
    mint: (payload, ctx) => codec.mint(payload, ctx),
    async verify(state, ctx) {
      try {
        return await codec.verify(state, ctx);
      } catch (error) {
        const code = error instanceof Error ? error.message : String(error);
        throw refusal(code, target, config.ttlSeconds);
      }
    },
  };
}

/** Maps the SDK codec's reason code to the -32602 error the client sees. */
function refusal(code: string, target: StateTarget, ttlSeconds: number): ProtocolError {
  const where = `${target.method} ${target.name}`;
  switch (code) {
    case 'expired':
      return new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid requestState for ${where}: it has expired (state lives ${ttlSeconds} s). Start the call again without requestState.`,
        { reason: 'expired' satisfies StateRefusal },
      );
    case 'bind':
      return new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid requestState for ${where}: it was issued for a different request (another tool, prompt, resource or other arguments) and cannot be replayed here.`,
        { reason: 'other_request' satisfies StateRefusal },
      );
    default:
      // 'malformed' and 'mac' both mean the bytes are not what this server (or one sharing its key) signed.
      return new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid requestState for ${where}: it was tampered with (malformed or bad signature). Echo it byte for byte as received.`,
        { reason: 'tampered' satisfies StateRefusal },
      );
  }
}

/** JSON with object keys sorted recursively; arrays keep their order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!isPlainObject(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = v[k];
    return sorted;
  });
}
