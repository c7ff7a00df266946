/**
 * The protocol over WebSockets, in browsers and in Node (any object with the browser
 * WebSocket's interface: the global `WebSocket`, or the `ws` package's sockets on a
 * server). The protocol's bytes go in binary WebSocket messages of any size; the receiver
 * reassembles messages across them, exactly as over TCP.
 *
 *     const link = await connectWebSocket("ws://127.0.0.1:8080/", new service.Client());
 *     const ack = await link.client.request(new service.OrderRequest({ order }));
 *     link.close();
 *
 * Server side (Node, with the `ws` package):
 *     wss.on("connection", (ws) => serveWebSocket(ws, (peer) => new Handler(peer), new service.Sender()));
 */
import { DecodeError } from "./errors.js";
import { Client, Receiver, Sender } from "./protocol.js";

/** What is used of a WebSocket (the browser's, Node's global, or the `ws` package's). */
export interface WebSocketLike {
  binaryType: string;
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message", listener: (ev: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (ev: { code?: number; reason?: string }) => void): void;
  addEventListener(type: "open" | "error", listener: (ev: unknown) => void): void;
}

export interface WebSocketOptions {
  /** Bound of the send queue (the socket's bufferedAmount), bytes. */
  maxQueuedBytes: number;
  /** A send above the bound: close the socket, or refuse the message. */
  overflow: "disconnect" | "fail";
  /** ms a request without a timeout of its own waits. */
  requestTimeout: number;
}

const DEFAULTS: WebSocketOptions = { maxQueuedBytes: 8 << 20, overflow: "disconnect", requestTimeout: 10000 };

function bytesOf(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data)) {
    // the ws package's "fragments" binary type
    const parts = data.filter((d): d is Uint8Array => ArrayBuffer.isView(d));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
  return null;
}

/** One WebSocket carrying a Sender's bytes out and a Receiver's in. */
export class WebSocketLink {
  closed = false;
  reason = "";
  onClose: ((reason: string) => void) | null = null;
  readonly options: WebSocketOptions;

  constructor(
    readonly socket: WebSocketLike,
    readonly sender: Sender,
    public receiver: Receiver,
    o?: Partial<WebSocketOptions>,
  ) {
    this.options = { ...DEFAULTS, ...(o ?? {}) };
    socket.binaryType = "arraybuffer";
    sender.onSend = (bytes) => {
      if (!this.closed) socket.send(bytes.slice());
      return bytes.length;
    };
    receiver.onError = (err: DecodeError) => {
      throw err;
    };
    socket.addEventListener("message", (ev) => {
      if (this.closed) return;
      const b = bytesOf(ev.data);
      if (b === null) {
        this.close(`protocol error: a text message`, 1003);
        return;
      }
      try {
        this.receiver.receive(b);
      } catch (err) {
        this.close(
          err instanceof DecodeError
            ? `protocol error: ${err.detail || err.message}`
            : `handler failed: ${err instanceof Error ? err.message : String(err)}`,
          1008,
        );
      }
    });
    socket.addEventListener("close", (ev) => this.finish(ev.reason || "peer closed the connection"));
  }

  get queued(): number {
    return this.socket.bufferedAmount;
  }

  /** Whether `size` more bytes fit the queue (else the overflow policy applies). */
  room(size: number): boolean {
    if (this.closed) return false;
    if (this.queued + size <= this.options.maxQueuedBytes) return true;
    if (this.options.overflow === "disconnect") {
      this.close(
        `send queue full (${this.queued} bytes queued, ${size} more, limit ${this.options.maxQueuedBytes})`,
        1008,
      );
    }
    return false;
  }

  /** Sends a message; false when not queued (closed, or the queue is full). */
  send(value: object): boolean {
    if (!this.room(this.sender.sizeOf(value))) return false;
    this.sender.send(value);
    return true;
  }

  close(reason = "closed", code = 1000): void {
    if (this.closed) return;
    this.reason = reason;
    try {
      this.socket.close(code, reason.slice(0, 120));
    } catch {
      // already closing
    }
    this.finish(reason);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.reason ||= reason;
    this.onClose?.(this.reason);
  }
}

/** Serves one accepted WebSocket (a server's connection): `makeHandler` gets the link. */
export function serveWebSocket<S extends Sender, R extends Receiver>(
  socket: WebSocketLike,
  makeHandler: (link: WebSocketLink) => R,
  sender: S,
  o?: Partial<WebSocketOptions>,
): WebSocketLink {
  // the handler needs the link to reply, the link needs the handler: made in that order
  const link = new WebSocketLink(socket, sender, new Receiver(sender.final), o);
  const handler = makeHandler(link);
  link.receiver = handler;
  handler.onError = (err: DecodeError) => {
    throw err;
  };
  return link;
}

/** Opens a WebSocket to `url` for a generated Client; resolves once it is open. */
export function connectWebSocket<C extends Client>(
  url: string,
  client: C,
  o?: Partial<WebSocketOptions>,
  make: (url: string) => WebSocketLike = (u) =>
    new (globalThis as unknown as { WebSocket: new (u: string) => WebSocketLike }).WebSocket(u),
): Promise<WebSocketLink> {
  return new Promise((resolve, reject) => {
    const socket = make(url);
    let open = false;
    socket.addEventListener("open", () => {
      open = true;
      const link = new WebSocketLink(socket, client.sender, client.receiver, o);
      client.requestTimeout = link.options.requestTimeout;
      client.canSend = (size) => (link.closed ? "disconnected" : link.room(size) ? null : "overflow");
      link.onClose = (reason) => client.disconnect(reason);
      resolve(link);
    });
    socket.addEventListener("error", () => {
      if (!open) reject(new Error(`WebSocket ${url} failed`));
    });
  });
}
