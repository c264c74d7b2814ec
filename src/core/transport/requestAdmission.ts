/**
 * The requests a server sends the host (2025-era pushes: elicitation, sampling, roots), admitted up
 * to {@link MAX_INPUT_REQUESTS_PER_ROUND} at once: past that a request is refused on the wire before
 * the SDK spends anything on it, so a server pushing thousands at once cannot make the host hold
 * them all. A request counts until its answer is written.
 *
 * Spec: JSON-RPC 2.0 (an error answers a request); MCP 2025-11-25 server-to-client requests.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { MAX_INPUT_REQUESTS_PER_ROUND } from '../limits';

/** Counts the server's requests being answered; refuses those past the bound. */
export class RequestAdmission {
  /** Ids of the requests the server sent that are not answered yet. */
  private readonly asked = new Set<string | number>();
  /** Refusals being written (a server flooding faster than it reads gets no more of them). */
  private refusing = 0;

  /**
   * @param write sends a message to the server (the transport's own send, unobserved)
   * @param onRefused a request refused here, as a sentence fragment
   */
  constructor(
    private readonly write: (message: JSONRPCMessage) => Promise<void>,
    private readonly onRefused?: (what: string) => void,
  ) {}

  /**
   * Admit a request of the server unless {@link MAX_INPUT_REQUESTS_PER_ROUND} are being answered
   * already: then it is refused with a JSON-RPC error (-32603). While as many refusals wait to be
   * written, further ones are dropped unanswered.
   * @returns whether the request goes on to the SDK
   */
  admit(id: string | number, method: string): boolean {
    if (this.asked.size < MAX_INPUT_REQUESTS_PER_ROUND) {
      this.asked.add(id);
      return true;
    }
    const why = `more than ${MAX_INPUT_REQUESTS_PER_ROUND} requests at once (MAX_INPUT_REQUESTS_PER_ROUND)`;
    this.onRefused?.(`sent ${why}: ${method.slice(0, 80)} refused`);
    if (this.refusing < MAX_INPUT_REQUESTS_PER_ROUND) {
      this.refusing++;
      void this.write({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: `refused: the host answers at most ${MAX_INPUT_REQUESTS_PER_ROUND} requests of a server at once` },
      })
        .catch(() => {})
        .finally(() => this.refusing--);
    }
    return false;
  }

  /**
   * The id of the admitted request `message` answers, if it is such an answer (at once when none is
   * being answered: the host's own requests pay nothing).
   */
  answered(message: JSONRPCMessage): string | number | undefined {
    if (!this.asked.size || 'method' in message || !('id' in message) || message.id === undefined || !this.asked.has(message.id))
      return undefined;
    return message.id;
  }

  /** The answer to request `id` is written (or failed to be): it no longer counts. */
  written(id: string | number): void {
    this.asked.delete(id);
  }
}
