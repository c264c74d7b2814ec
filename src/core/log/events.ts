/**
 * Events the host emits: one per MRTR leg and per answer (the round-trip log), plus connection,
 * stderr and 2025-era pushed-request events. `traceLog.ts` turns them into log lines.
 * Values that may be secret (form content, `requestState`) never appear here: only field names,
 * lengths and fingerprints (docs/field-cases.md, F9).
 */
import type { InputMethod, MrtrMethod } from '../inputs/inputProvider';

/** A `requestState` as the log may show it: presence, length in UTF-16 code units, fingerprint. */
export interface StateDigest {
  present: boolean;
  length?: number;
  fingerprint?: string;
}

interface FlowBase {
  flowId: number;
  server: string;
  method: MrtrMethod;
  target: string;
  /** 0 for the original request; n for the n-th retry / n-th `input_required`. */
  round: number;
  /** The call's history entry, when the host keeps one (named on the call's first and last line). */
  historyId?: string;
}

/** One event of an MRTR flow (a call and all its rounds). Times are milliseconds. */
export type RoundTripEvent =
  | (FlowBase & { kind: 'request'; id?: string | number })
  | (FlowBase & {
      kind: 'inputRequired';
      id?: string | number;
      inputs: { key: string; method: InputMethod }[];
      state: StateDigest;
      legMs: number;
    })
  | (FlowBase & { kind: 'answer'; key: string; inputMethod: InputMethod; action: string; summary: string; waitedMs: number })
  | (FlowBase & {
      kind: 'retry';
      id?: string | number;
      previousId?: string | number;
      keys: string[];
      state: StateDigest;
      echoExact: boolean;
      delayMs: number;
    })
  | (FlowBase & { kind: 'complete'; id?: string | number; legMs: number; totalMs: number; waitingMs: number; isError: boolean })
  | (FlowBase & {
      kind: 'error';
      id?: string | number;
      errorKind: string;
      code?: number;
      message: string;
      totalMs: number;
      waitingMs: number;
    })
  | (FlowBase & { kind: 'warning'; id?: string | number; message: string })
  /**
   * The server runs the call as a task (MCP 2025-11-25 "Tasks", 2026-07-28 tasks extension): its id,
   * its time to live (ms; `null`: unlimited; absent: not said) and its poll interval (ms; absent: not said).
   */
  | (FlowBase & { kind: 'taskCreated'; taskId: string; ttlMs?: number | null; pollIntervalMs?: number })
  /** The host sent `tasks/cancel` for the call's task (cancelled, or out of time). */
  | (FlowBase & { kind: 'taskCancel'; taskId: string; reason: string });

/** The lists a server may say changed (MCP "Tools", "Prompts", "Resources": list changed notifications). */
export type ChangedList = 'tools' | 'prompts' | 'resources';

/** Events about a server rather than a flow. */
export type ServerEvent =
  | { kind: 'connecting'; server: string; attempt: 'first' | 'reconnect' }
  | {
      kind: 'connected';
      server: string;
      era: 'modern' | 'legacy';
      protocolVersion?: string;
      serverName?: string;
      serverVersion?: string;
      ms: number;
    }
  | { kind: 'disconnected'; server: string; reason: string }
  | { kind: 'stderr'; server: string; line: string; cut?: boolean }
  /** Lines of a server (stderr, or its warnings) past the log's rate, counted instead of logged. */
  | { kind: 'linesDropped'; server: string; source: 'stderr' | 'warnings' | 'log'; count: number }
  /**
   * A `notifications/message` of the server (MCP "Logging"): its level, logger, and its data as one
   * line (a string as sent, anything else as JSON), already cut to a bounded length.
   */
  | { kind: 'serverLog'; server: string; level: string; logger?: string; text: string }
  | { kind: 'pushed'; server: string; inputMethod: InputMethod; id: string | number; action: string; summary: string }
  | { kind: 'serverWarning'; server: string; message: string }
  /**
   * The server says a list it offers changed (`notifications/tools|prompts|resources/list_changed`):
   * logged, and the views that show that list read it again.
   */
  | { kind: 'listChanged'; server: string; list: ChangedList }
  /** A step of a sign-in (discovery, registration, scopes, expiry, sign-out): never a token, code or secret. */
  | { kind: 'auth'; server: string; message: string };

/** Every event the host emits (the round-trip log's input). */
export type HostEvent = RoundTripEvent | ServerEvent;

/** Receives host events. Must not throw (errors are swallowed so a broken logger never breaks a call). */
export type HostEventListener = (event: HostEvent) => void;
