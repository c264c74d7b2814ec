/** A terminal's input as readline sees one, for tests of questions at the terminal. */
import { PassThrough } from 'node:stream';

/** A stream readline takes for a terminal in raw mode: keys arrive as bytes (Ctrl+C is 0x03, not a signal). */
export function terminalInput(): PassThrough & { isTTY: true; setRawMode: (on: boolean) => void } {
  return Object.assign(new PassThrough(), { isTTY: true as const, setRawMode: () => {} });
}
