import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Middleware, ParameterizedContext } from 'koa';

// A phone on weak mobile data pays for every byte: text answers (pages, scripts, styles, JSON) go out
// compressed with brotli or gzip, whichever the browser takes. Compression runs on libuv's thread
// pool, so it does not stall other requests.

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this the encoding's own overhead eats most of the gain. */
const minimumBytes = 1024;
const compressibleType = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
/** Brotli's quality 5 compresses about as well as gzip -9 in a fraction of quality 11's time. */
const brotliQuality = 5;

type Encoding = 'br' | 'gzip';

/** The encoding to send for an Accept-Encoding header: brotli before gzip, never one refused with q=0. */
function chooseEncoding(header: string): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) : 1);
  }
  return (['br', 'gzip'] as const).find((name) => (weights.get(name) ?? weights.get('*') ?? 0) > 0);
}

function bodyBytes(body: unknown): Buffer | undefined {
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  // Koa would serialise a plain object or array as JSON; streams are left alone.
  if (body && typeof body === 'object' && (Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype)) {
    return Buffer.from(JSON.stringify(body));
  }
  return undefined;
}

/** `raw` in `encoding`, on libuv's thread pool. */
function encode(raw: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      })
    : gzip(raw);
}

/** Each encoding of bytes that never change, made when a browser first asks for it. */
export type KeptEncodings = Partial<Record<Encoding, Promise<Buffer>>>;

/**
 * Answers `raw`, which never changes, in the encoding the browser takes: compressed at the first
 * request that asks for that encoding and kept in `kept` for the next ones, where `compress()` would
 * compress it again at every request (it leaves a body that already has its encoding alone).
 */
export async function sendKeptEncoded(
  ctx: ParameterizedContext<unknown, object, unknown>,
  raw: Buffer,
  kept: KeptEncodings,
): Promise<void> {
  ctx.vary('Accept-Encoding');
  const encoding = chooseEncoding(ctx.get('Accept-Encoding'));
  if (!encoding || raw.length < minimumBytes || !compressibleType.test(ctx.response.type)) {
    ctx.body = raw;
    return;
  }
  ctx.body = await (kept[encoding] ??= encode(raw, encoding));
  ctx.set('Content-Encoding', encoding);
}

export function compress(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method === 'HEAD' || ctx.body == null || ctx.response.get('Content-Encoding')) return;
    if (!compressibleType.test(ctx.response.type)) return;
    ctx.vary('Accept-Encoding');
    const encoding = chooseEncoding(ctx.get('Accept-Encoding'));
    // Without an encoding the body goes out as it is: no need to measure it.
    const raw = encoding && bodyBytes(ctx.body);
    if (!encoding || !raw) return;
    // Serialised already: koa need not write the JSON a second time.
    if (raw.length < minimumBytes) {
      ctx.body = raw;
      return;
    }
    ctx.body = await encode(raw, encoding);
    ctx.set('Content-Encoding', encoding);
  };
}
