import net from 'node:net';

/**
 * A mail server in a few lines of SMTP: records every message it accepts, or refuses every sender
 * with a temporary error when `refuse` is set.
 */
export async function smtpServer({ refuse = false } = {}) {
  const messages: string[] = [];
  let waiting: (() => void) | undefined;
  const server = net.createServer((socket) => {
    let buffer = '';
    let body: string[] | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 test.local ESMTP');
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (body) {
          if (line !== '.') body.push(line.startsWith('..') ? line.slice(1) : line);
          else {
            messages.push(body.join('\n'));
            body = undefined;
            reply('250 2.0.0 queued');
            waiting?.();
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') reply('250 test.local');
        else if (command === 'MAIL') reply(refuse ? '451 4.3.0 Mailbox temporarily unavailable' : '250 2.1.0 OK');
        else if (command === 'RCPT' || command === 'RSET' || command === 'NOOP') reply('250 2.1.5 OK');
        else if (command === 'DATA') {
          body = [];
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (command === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else reply('502 5.5.2 Command not recognised');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    messages,
    /** Resolves once a message has arrived (the test's timeout bounds the wait). */
    received: () => new Promise<void>((resolve) => (messages.length ? resolve() : (waiting = resolve))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A message body as sent: quoted-printable soft line breaks joined, escapes decoded as UTF-8. */
export const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
