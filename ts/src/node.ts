/**
 * The protocol over TCP in Node (`net`), following docs/transport.md: a server bound to
 * any address serving many clients at once, each answered on its own connection; a
 * client whose requests time out by themselves; bounded memory (send queue, one
 * incomplete message); timeouts (message, write, idle, connect); back-pressure
 * (`overflow`: disconnect or fail); graceful shutdown that loses nothing queued.
 *
 *     import { Server, NetClient } from "@fastwire/runtime/node";
 *     const server = new Server((peer) => new Handler(peer), () => new service.Sender());
 *     const port = await server.listen("::", 0);
 *     const client = new NetClient(new service.Client());
 *     await client.connect("127.0.0.1", port);
 *     const ack = await client.client.request(new service.OrderRequest({ order }));
 *     await client.close(); await server.stop();
 */
import * as net from "node:net";
import { DecodeError } from "./errors.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { Client, Receiver, Sender } from "./protocol.js";

export interface TransportOptions {
  /** Bound of a connection's send queue (bytes). */
  maxQueuedBytes: number;
  /** A send above the bound: close the connection, or refuse the message. */
  overflow: "disconnect" | "fail";
  /** ms without write progress while bytes are queued: the peer is not reading. */
  writeTimeout: number;
  /** ms a started message may take to complete. */
  messageTimeout: number;
  /** ms without input before a graceful close (0: off). */
  idleTimeout: number;
  /** A server with this many connections closes new ones at once. */
  maxConnections: number;
  /** ms for a TCP connect. */
  connectTimeout: number;
  /** ms a request without a timeout of its own waits for its answer. */
  requestTimeout: number;
  /** ms a graceful close waits for the queue to flush and the peer to close. */
  shutdownTimeout: number;
  /** The receiver's limits (maxMessageSize bounds one incomplete message). */
  receiveLimits: Limits;
}

export const DEFAULT_TRANSPORT: TransportOptions = Object.freeze({
  maxQueuedBytes: 8 << 20,
  overflow: "disconnect",
  writeTimeout: 10000,
  messageTimeout: 10000,
  idleTimeout: 0,
  maxConnections: 10000,
  connectTimeout: 5000,
  requestTimeout: 10000,
  shutdownTimeout: 5000,
  receiveLimits: DEFAULT_LIMITS,
});

export type Log = (line: string) => void;

/** One socket carrying a Sender's bytes out and a Receiver's in. */
class Link {
  private closing = false;
  private closed = false;
  private discard = false;
  private lastWritten = 0;
  private stalledSince = 0;
  private messageSince = 0;
  private lastInput = Date.now();
  private tick: ReturnType<typeof setInterval>;
  private shutdownTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly done: Promise<string>;
  private finish!: (reason: string) => void;
  reason = "";

  constructor(
    readonly socket: net.Socket,
    readonly sender: Sender,
    readonly receiver: Receiver,
    readonly o: TransportOptions,
    readonly name: string,
    readonly log: Log | null,
    readonly onClosed: (reason: string) => void,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    socket.setNoDelay(true);
    sender.onSend = (bytes) => this.write(bytes);
    const shortest = Math.min(...[o.writeTimeout, o.messageTimeout, o.idleTimeout || Infinity].filter((x) => x > 0));
    this.tick = setInterval(() => this.onTick(), Math.max(5, Math.min(250, shortest / 4)));
    this.tick.unref();
    receiver.onError = (err: DecodeError) => {
      throw err;
    };
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("end", () => this.onEnd());
    socket.on("error", (err) => this.abort(`${this.closing ? "write" : "read"} failed: ${err.message}`));
    socket.on("close", () => this.onClose());
  }

  get queued(): number {
    return this.socket.writableLength + this.sender.buffer.len;
  }

  get up(): boolean {
    return !this.closing && !this.closed;
  }

  wait(): Promise<string> {
    return this.done;
  }

  /** Whether `size` more bytes fit the queue (else the overflow policy applies). */
  room(size: number): boolean {
    if (this.queued + size <= this.o.maxQueuedBytes) return true;
    if (this.o.overflow === "disconnect") {
      this.abort(`send queue full (${this.queued} bytes queued, ${size} more, limit ${this.o.maxQueuedBytes})`);
    }
    return false;
  }

  private write(bytes: Uint8Array): number {
    if (this.closed) return bytes.length; // dropped: the connection is gone
    this.socket.write(Buffer.from(bytes)); // a copy: the sender reuses its buffer
    return bytes.length;
  }

  private onData(chunk: Buffer): void {
    this.lastInput = Date.now();
    if (this.discard || this.closed) return;
    try {
      this.receiver.receive(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    } catch (err) {
      if (err instanceof DecodeError) {
        this.abort(`protocol error: ${err.detail || err.message}`);
      } else {
        this.abort(`handler failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      return;
    }
    if (this.receiver.pending > 0) {
      if (this.messageSince === 0) this.messageSince = Date.now();
    } else this.messageSince = 0;
  }

  private onEnd(): void {
    if (this.receiver.pending > 0 && !this.discard) {
      this.reason ||= `peer closed the connection in the middle of a message (${this.receiver.pending} bytes received)`;
    } else this.reason ||= "peer closed the connection";
    this.discard = true;
    this.closing = true;
    this.socket.end(); // flush what is queued, then FIN
  }

  private onTick(): void {
    const now = Date.now();
    if (this.closed) return;
    const o = this.o;
    if (this.messageSince && !this.discard && now - this.messageSince > o.messageTimeout) {
      this.abort(`message incomplete after ${o.messageTimeout} ms (${this.receiver.pending} bytes received)`);
      return;
    }
    if (this.socket.writableLength > 0) {
      const written = this.socket.bytesWritten;
      if (written !== this.lastWritten) {
        this.lastWritten = written;
        this.stalledSince = now;
      } else if (this.stalledSince === 0) this.stalledSince = now;
      else if (now - this.stalledSince > o.writeTimeout) {
        this.abort(`peer not reading: ${this.socket.writableLength} bytes unsent for ${o.writeTimeout} ms`);
        return;
      }
    } else this.stalledSince = 0;
    if (o.idleTimeout > 0 && !this.closing && now - this.lastInput > o.idleTimeout) {
      this.close(`idle for ${o.idleTimeout} ms`, false);
    }
  }

  /** Graceful: stop sending, flush, half-close, close when the peer has (or at shutdownTimeout). */
  close(reason: string, keepReading: boolean): Promise<string> {
    if (!this.closing && !this.closed) {
      this.closing = true;
      this.reason ||= reason;
      if (!keepReading) this.discard = true;
      this.socket.end();
      this.shutdownTimer = setTimeout(() => {
        this.reason = `${this.reason}; shutdown timed out with ${this.socket.writableLength} bytes unsent`;
        this.socket.destroy();
      }, this.o.shutdownTimeout);
      this.shutdownTimer.unref();
    }
    return this.done;
  }

  abort(reason: string): void {
    if (this.closed) return;
    this.reason ||= reason;
    this.discard = true;
    this.closing = true;
    this.socket.destroy();
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.tick);
    if (this.shutdownTimer) clearTimeout(this.shutdownTimer);
    this.reason ||= "peer closed the connection";
    this.log?.(`${this.name} closed: ${this.reason}`);
    this.onClosed(this.reason);
    this.finish(this.reason);
  }
}

function options(o?: Partial<TransportOptions>): TransportOptions {
  return { ...DEFAULT_TRANSPORT, ...(o ?? {}) };
}

/** A server connection: send to this client, close it. */
export class Peer<S extends Sender = Sender> {
  /** @internal */ link!: Link;
  constructor(
    readonly id: number,
    readonly remote: string,
    readonly sender: S,
  ) {}
  /** Queues a message for this client; false when it was not queued (closed, or the
   * queue is full: with overflow "disconnect" the connection is then closed). */
  send(value: object): boolean {
    if (!this.link.up) return false;
    if (!this.link.room(this.sender.sizeOf(value))) return false;
    this.sender.send(value);
    return true;
  }
  close(reason = "closed by the server"): Promise<string> {
    return this.link.close(reason, false);
  }
  get queued(): number {
    return this.link.queued;
  }
}

/** Serves a protocol on one address; a handler (a Receiver) per connection, made with
 * its Peer, and a Sender per connection from `makeSender`. */
export class Server<S extends Sender = Sender, R extends Receiver = Receiver> {
  readonly options: TransportOptions;
  private server: net.Server | null = null;
  private readonly links = new Set<Link>();
  private seq = 0;
  accepted = 0;
  messages = 0;

  constructor(
    readonly makeHandler: (peer: Peer<S>) => R,
    readonly makeSender: () => S,
    o?: Partial<TransportOptions>,
    readonly log: Log | null = null,
  ) {
    this.options = options(o);
  }

  get connections(): number {
    return this.links.size;
  }

  /** Listens; resolves with the port (port 0: an ephemeral one). */
  listen(host: string, port: number): Promise<number> {
    const server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host, port, ipv6Only: false }, () => {
        server.off("error", reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  }

  get port(): number {
    return (this.server?.address() as net.AddressInfo | null)?.port ?? 0;
  }

  private accept(socket: net.Socket): void {
    const id = ++this.seq;
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    const name = `connection ${id} ${remote}`;
    if (this.links.size >= this.options.maxConnections) {
      this.log?.(`${name} refused: ${this.links.size} connections`);
      socket.destroy();
      return;
    }
    this.accepted++;
    this.log?.(`${name} accepted`);
    const sender = this.makeSender();
    const peer = new Peer<S>(id, remote, sender);
    const handler = this.makeHandler(peer);
    const link = new Link(socket, sender, handler, this.options, name, this.log, () => this.links.delete(link));
    peer.link = link;
    this.links.add(link);
  }

  /** Stops accepting, stops handling input, flushes every connection, closes them. */
  async stop(): Promise<void> {
    this.server?.close();
    await Promise.all([...this.links].map((l) => l.close("server stopping", false)));
  }
}

/** A client connection for a generated Client (its Sender, Receiver and requests). */
export class NetClient<C extends Client = Client> {
  readonly options: TransportOptions;
  private link: Link | null = null;
  connects = 0;

  constructor(
    readonly client: C,
    o?: Partial<TransportOptions>,
    readonly log: Log | null = null,
  ) {
    this.options = options(o);
    client.requestTimeout = this.options.requestTimeout;
    client.canSend = (size) =>
      this.link === null || !this.link.up ? "disconnected" : this.link.room(size) ? null : "overflow";
  }

  get connected(): boolean {
    return this.link !== null && this.link.up;
  }

  get queued(): number {
    return this.link?.queued ?? 0;
  }

  connect(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port, allowHalfOpen: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`connect to ${host}:${port} timed out after ${this.options.connectTimeout} ms`));
      }, this.options.connectTimeout);
      socket.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.once("connect", () => {
        clearTimeout(timer);
        this.connects++;
        this.client.receiver.reset();
        this.client.sender.reset();
        this.link = new Link(
          socket,
          this.client.sender,
          this.client.receiver,
          this.options,
          `connection to ${host}:${port}`,
          this.log,
          (reason) => this.client.disconnect(reason),
        );
        resolve();
      });
    });
  }

  /** Sends a message; false when not queued (not connected, or the queue is full). */
  send(value: object): boolean {
    const link = this.link;
    if (link === null || !link.up) return false;
    if (!link.room(this.client.sender.sizeOf(value))) return false;
    this.client.send(value);
    return true;
  }

  /** No more sends; flush; half-close; keep reading the answers in flight; done when the
   * server closes its side (or at shutdownTimeout). */
  async close(): Promise<void> {
    if (this.link) await this.link.close("closed by the client", true);
  }
}
