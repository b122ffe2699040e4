import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy for the fault tests: it forwards every connection to `target` until it is cut. A cut
 * destroys every open connection and closes the listening port, so new connections are refused
 * (ECONNREFUSED, as when the database is down) until `restore()` listens on the same port again.
 */
export interface TcpProxy {
  port: number;
  /** The connection string `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Connections forwarded right now. */
  readonly open: number;
  cut(): Promise<void>;
  /**
   * Arms a cut at a chosen moment: the first chunk a client sends that contains `text` (e.g. a
   * statement) is not forwarded, and everything is cut. Resolves once that happened.
   */
  cutOn(text: string): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let trigger: { text: string; fired: () => void } | undefined;
  let cutting: Promise<void> | undefined;

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    // The statement may arrive split over two chunks: the tail of the last one is searched too.
    let tail = '';
    client.on('data', (chunk: Buffer) => {
      const seen = tail + chunk.toString('latin1');
      tail = seen.slice(-256);
      if (trigger && seen.includes(trigger.text)) {
        const { fired } = trigger;
        trigger = undefined;
        void cut().then(fired);
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop).on('error', drop);
    upstream.on('close', drop).on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  function cut(): Promise<void> {
    cutting ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    });
    return cutting;
  }

  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.href;
    },
    get open() {
      return pairs.size;
    },
    cut,
    cutOn(text) {
      return new Promise<void>((fired) => {
        trigger = { text, fired };
      });
    },
    async restore() {
      if (!cutting) return;
      await cutting;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject).listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      cutting = undefined;
    },
    async close() {
      trigger = undefined;
      await cut();
    },
  };
}
