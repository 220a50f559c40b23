import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A request a receiver got: its headers and its body as sent. */
export type Received = { headers: Record<string, string>; body: string };

/**
 * A local HTTP server standing in for a webhook receiver. `answer` decides each response (default 200);
 * returning null leaves the request hanging (a receiver that does not answer) until the receiver closes.
 */
export async function startReceiver(answer: (received: Received, index: number) => number | null = () => 200) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = { headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') };
    received.push(request);
    const status = answer(request, received.length - 1);
    if (status === null) {
      hanging.add(res);
      return;
    }
    res.writeHead(status).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
