/**
 * What a stdio server's stdout line becomes (`stdioTransport.ts`): a message, an answer the host
 * cannot read (its request fails at once), or noise; a line over {@link MAX_MESSAGE_BYTES} is not
 * read, and when which request it answers cannot be told, the connection ends.
 *
 * Spec: MCP 2026-07-28 "Transports", stdio: one JSON-RPC message per line.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { MAX_MESSAGE_BYTES } from '../limits';
import type { LineListener } from './boundedLines';
import { claimedAnswerId, readMessageLine, unreadableAnswer } from './incoming';

const MIB = 1024 * 1024;

/** Where the stdout lines go. */
export interface StdoutSink {
  /** A message read, or the error answer standing for one the host could not read. */
  deliver(message: JSONRPCMessage): void;
  /** A line that could not be read, as a sentence fragment (for the server's diagnostics). */
  unreadable(reason: string): void;
  /** End the connection (a line too long to say which request it answers). */
  giveUp(): void;
}

/** The listener of a server's stdout lines (`BoundedLines`, cut at {@link MAX_MESSAGE_BYTES}). */
export function stdoutLines(sink: StdoutSink): LineListener {
  return (bytes, cut) => {
    if (cut) {
      const id = claimedAnswerId(bytes.subarray(0, 4096).toString('utf8'));
      const reason = `a line on stdout is longer than ${MAX_MESSAGE_BYTES / MIB} MiB (MAX_MESSAGE_BYTES); it was not read`;
      if (id !== undefined) {
        sink.unreadable(reason);
        return sink.deliver(unreadableAnswer(id, reason));
      }
      // Which request it answers cannot be told: the connection ends, so none waits for it in vain.
      sink.unreadable(`${reason}, and which request it answers cannot be told: the connection was closed`);
      sink.giveUp();
      return;
    }
    const end = bytes.length && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const text = bytes.toString('utf8', 0, end);
    if (!/\S/.test(text)) return;
    const read = readMessageLine(text);
    if (read.ok) return sink.deliver(read.message);
    sink.unreadable(`a line on stdout: ${read.reason}`);
    if (read.answers !== undefined) sink.deliver(unreadableAnswer(read.answers, read.reason));
  };
}
