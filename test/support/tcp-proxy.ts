import net from 'node:net';

/**
 * A TCP proxy in front of a database server, for outage tests: it can stop listening (connections are
 * refused, as when the server is down), cut every connection it carries, or cut them when a client
 * sends a chunk containing some text (a statement), so that the statement fails under its sender.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private cutOn: { text: string; refuse: boolean } | null = null;
  private closing: Promise<void> = Promise.resolve();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens (again) on its port, the first time an ephemeral one. */
  async open(): Promise<void> {
    await this.closing;
    const server = net.createServer((client) => this.carry(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and cuts every connection: the database is unreachable until `open`. */
  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.cutConnections();
    if (server) this.closing = new Promise<void>((resolve) => server.close(() => resolve()));
    return this.closing;
  }

  /** Cuts every connection it carries; new ones are still accepted. */
  cutConnections() {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /**
   * Cuts every connection, once, when a client next sends a chunk containing `text` (which is not
   * forwarded); `refuse`: stops listening at the same moment, as `close` does.
   */
  cutWhenSent(text: string, { refuse = false } = {}) {
    this.cutOn = { text, refuse };
  }

  private carry(client: net.Socket) {
    const upstream = net.connect(this.target.port, this.target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => this.end(client, upstream));
      socket.on('close', () => this.end(client, upstream));
    }
    client.on('data', (chunk) => {
      const cut = this.cutOn;
      if (cut && chunk.includes(cut.text)) {
        this.cutOn = null;
        if (cut.refuse) void this.close();
        else this.cutConnections();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
  }

  private end(...sockets: net.Socket[]) {
    for (const socket of sockets) {
      this.sockets.delete(socket);
      socket.destroy();
    }
  }
}
