import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCErrorResponse, JSONRPCMessage, JSONRPCResultResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from './methods/tools-call';
import type { McpMetrics } from './metrics';
import { dataCodeOf } from './rpc-errors';

/** Who sent an HTTP request: its request id (for `error.data.request_id`) and what a tool call needs of it. */
export interface Caller {
  requestId: string;
  context: ToolCallContext;
}

/** What a JSON-RPC request is counted under in er_mcp_messages_total. */
export interface MessageLabels {
  method: string;
  tool: string;
}

export type JsonRpcAnswer = JSONRPCResultResponse | JSONRPCErrorResponse;

/** The JSON-RPC requests of one HTTP request, waiting for their answers. */
export interface PendingAnswers {
  /** Every request's answer, in the order the requests came. */
  answered: Promise<JsonRpcAnswer[]>;
  /** The HTTP request went away: answers that come later are dropped. */
  abandon: () => void;
}

interface InFlight {
  batch: Batch;
  /** The id the client gave the request, restored on its answer. */
  clientId: RequestId;
  /** Where its answer goes in the batch's answers. */
  slot: number;
  labels: MessageLabels;
}

interface Batch {
  caller: Caller;
  answers: JsonRpcAnswer[];
  remaining: number;
  resolve: (answers: JsonRpcAnswer[]) => void;
}

/**
 * The one transport of the process's one SDK `Server`: it carries the
 * JSON-RPC messages of every HTTP request to that server and each answer
 * back to the HTTP request it belongs to.
 *
 * Requests from different HTTP requests may carry the same id (every
 * client starts at 0 or 1), so each request reaches the server under an id
 * of its own, a number no other request in this process has, and its
 * answer goes back under the client's id. The server's handlers find the
 * caller of a request by that id (`callerOf(extra.requestId)`).
 *
 * Every answer passes through `send`, which makes each JSON-RPC error carry
 * `data.request_id` and `data.code` (also the errors the SDK raises itself)
 * and counts the outcome per method and tool.
 */
export class ExchangeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private lastId = 0;
  private readonly inFlight = new Map<number, InFlight>();

  constructor(private readonly metrics: McpMetrics) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.inFlight.clear();
    this.onclose?.();
  }

  /** The caller of a request the server is serving, by the id the server sees it under. */
  callerOf(serverId: RequestId): Caller | undefined {
    return typeof serverId === 'number' ? this.inFlight.get(serverId)?.batch.caller : undefined;
  }

  /**
   * Hands one HTTP request's messages to the server, in order. Returns null
   * when none is a request (notifications and stray responses are answered
   * by nothing). `labels` has an entry for each request, at its index.
   */
  dispatch(caller: Caller, messages: readonly JSONRPCMessage[], labels: readonly (MessageLabels | undefined)[]): PendingAnswers | null {
    const requests = messages.filter(isRequest).length;
    if (requests === 0) {
      for (const message of messages) this.onmessage?.(message);
      return null;
    }
    let resolve!: (answers: JsonRpcAnswer[]) => void;
    const answered = new Promise<JsonRpcAnswer[]>((r) => (resolve = r));
    const batch: Batch = { caller, answers: new Array<JsonRpcAnswer>(requests), remaining: requests, resolve };
    const serverIds: number[] = [];
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      if (!isRequest(message)) {
        this.onmessage?.(message);
        continue;
      }
      const serverId = ++this.lastId;
      this.inFlight.set(serverId, { batch, clientId: message.id, slot: serverIds.length, labels: labels[i] ?? { method: 'other', tool: '' } });
      serverIds.push(serverId);
      this.onmessage?.({ ...message, id: serverId });
    }
    return {
      answered,
      abandon: () => {
        for (const id of serverIds) this.inFlight.delete(id);
      },
    };
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers have somewhere to go: with one JSON body per HTTP request there is no stream for
    // a notification or a request of the server's own (this server sends neither).
    if (!('id' in message) || typeof message.id !== 'number' || !('result' in message || 'error' in message)) return;
    const entry = this.inFlight.get(message.id);
    if (!entry) return;
    this.inFlight.delete(message.id);
    const { batch, clientId, slot, labels } = entry;
    let answer: JsonRpcAnswer;
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      const own = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
      const shaped = { request_id: batch.caller.requestId, code: dataCodeOf[code] ?? 'error', ...own };
      answer = {
        jsonrpc: '2.0',
        id: clientId,
        error: {
          code,
          // The SDK prefixes its own errors with "MCP error <code>: ", which says nothing the code does not.
          message: text.replace(/^MCP error -?\d+: /, ''),
          data: shaped,
        },
      };
      this.metrics.messages.inc({ ...labels, outcome: String(shaped.code) });
    } else {
      answer = { jsonrpc: '2.0', id: clientId, result: message.result };
      this.metrics.messages.inc({ ...labels, outcome: (message.result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok' });
    }
    batch.answers[slot] = answer;
    if (--batch.remaining === 0) batch.resolve(batch.answers);
  }
}

/** A message already checked against JSONRPCMessageSchema: a request has both an id and a method. */
function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in message && 'id' in message;
}
