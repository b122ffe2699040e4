import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { repoRoot } from '../e2e/server.ts';

// A receiver of the shop's outbound webhooks, as another system runs one: it checks each call's
// signature with the code printed in docs/webhooks.md and records what arrived. It can be down (503), redirect,
// or be closed altogether (connections refused) and opened again on the same port.

type Verify = (secret: string, headers: http.IncomingHttpHeaders, body: string) => boolean;

/** The `verifyWebhook` of docs/webhooks.md, run exactly as printed there. */
export async function readmeVerifier(): Promise<Verify> {
  const page = fs.readFileSync(path.join(repoRoot, 'docs/webhooks.md'), 'utf8');
  const code = /<!-- webhook-verify -->\s*```js\n([\s\S]*?)```/.exec(page)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no webhook-verify code block');
  const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { verifyWebhook: Verify };
  return module.verifyWebhook;
}

export interface Received {
  id: string;
  type: string;
  verified: boolean;
  headers: http.IncomingHttpHeaders;
  body: { id: string; type: string; created: string; data: Record<string, unknown> };
}

export type Answer = 'up' | 'down' | 'redirect';

export interface Receiver {
  url: string;
  port: number;
  /** Every call that was answered 2xx, in order. */
  received: Received[];
  /** Every call, whatever it was answered. */
  calls: number;
  answer: Answer;
  /** The secret its signatures are checked with. */
  secret: string;
  close(): Promise<void>;
  /** Listens again on the same port after `close`. */
  open(): Promise<void>;
}

export async function webhookReceiver(answer: Answer = 'up', port = 0): Promise<Receiver> {
  const verify = await readmeVerifier();
  const sockets = new Set<net.Socket>();
  const receiver: Receiver = {
    url: '',
    port,
    received: [],
    calls: 0,
    answer,
    secret: '',
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
    open: () => listen(receiver.port),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      receiver.calls++;
      if (receiver.answer === 'down') {
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end(`down for maintenance ${'x'.repeat(5000)}`);
        return;
      }
      if (receiver.answer === 'redirect') {
        res.writeHead(302, { Location: `${receiver.url}/elsewhere` }).end();
        return;
      }
      const parsed = JSON.parse(body) as Received['body'];
      receiver.received.push({
        id: parsed.id,
        type: parsed.type,
        verified: verify(receiver.secret, req.headers, body),
        headers: req.headers,
        body: parsed,
      });
      res.writeHead(204).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        receiver.port = (server.address() as net.AddressInfo).port;
        receiver.url = `http://127.0.0.1:${receiver.port}`;
        resolve();
      });
    });
  await listen(port);
  return receiver;
}
