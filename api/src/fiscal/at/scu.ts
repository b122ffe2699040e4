import { SigningFailed } from '../port.ts';

// The signature creation unit (Signaturerstellungseinheit, §2 Z 6 RKSV) through one small HTTP API:
// our code builds the RKSV receipt (chain.ts: number, chain value, encrypted counter, machine-readable
// code) and the unit only signs its JWS signing input with ES256 (Anlage Z 2, the R1 suite), as a
// smart card or an HSM does. The local simulator (../sandbox/scu.ts) serves this API; a signature
// service behind the same API is configured with FISCAL_API_URL, FISCAL_API_KEY, FISCAL_API_SECRET and
// FISCAL_TSS_ID (the unit's id). fiskaly SIGN AT is not this shape: it keeps the chain itself
// (docs/fiscal.md says what that leaves to do).
//
// - POST /auth {api_key, api_secret} answers {access_token, access_token_expires_in} (seconds).
// - PUT /scu/{id} sets the unit up once (the same call again answers it as it is):
//   {serial_number, public_key (base64 SubjectPublicKeyInfo, P-256), zda, certificate, certificate_chain}.
//   A unit without a certificate (zda AT0, a closed system in the RKSV's sense) is registered at
//   FinanzOnline with its public key; its serial number is the key's id.
// - POST /scu/{id}/sign {data} answers {signature}: ES256 over `data`, r‖s in base64url (RFC 7515 A.3).

export interface ScuEndpoint {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  scuId: string;
  timeoutMs: number;
}

export interface ScuInfo {
  serialNumber: string;
  publicKey: string;
  zda: string;
  certificate: string;
  certificateChain: string[];
}

type Json = Record<string, unknown>;

const tokens = new Map<string, { value: string; renewAt: number }>();
const units = new Map<string, ScuInfo>();

async function call(endpoint: ScuEndpoint, method: string, path: string, body: Json, token?: string): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(`${endpoint.baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
  } catch (error) {
    throw new SigningFailed(`The signature device cannot be reached (${method} ${path}): ${(error as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  let parsed: Json;
  try {
    parsed = text ? (JSON.parse(text) as Json) : {};
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  if (res.status === 401) tokens.delete(`${endpoint.baseUrl} ${endpoint.apiKey}`);
  if (res.status >= 300) {
    const said = [parsed.code, parsed.message].filter(Boolean).join(': ');
    throw new SigningFailed(
      `The signature device refused ${method} ${path} (HTTP ${res.status})${said ? `: ${String(said)}` : ''}`,
    );
  }
  return parsed;
}

async function token(endpoint: ScuEndpoint): Promise<string> {
  const key = `${endpoint.baseUrl} ${endpoint.apiKey}`;
  const known = tokens.get(key);
  if (known && known.renewAt > Date.now()) return known.value;
  const answer = await call(endpoint, 'POST', '/auth', { api_key: endpoint.apiKey, api_secret: endpoint.apiSecret });
  if (typeof answer.access_token !== 'string') throw new SigningFailed('The signature device gave no access token.');
  const seconds = Number(answer.access_token_expires_in) || 300;
  tokens.set(key, { value: answer.access_token, renewAt: Date.now() + Math.max(seconds - 60, 1) * 1000 });
  return answer.access_token;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The unit, set up on first use: its serial number, public key and certificates. */
export async function scuInfo(endpoint: ScuEndpoint): Promise<ScuInfo> {
  const key = `${endpoint.baseUrl} ${endpoint.scuId}`;
  const known = units.get(key);
  if (known) return known;
  const unit = await call(endpoint, 'PUT', `/scu/${endpoint.scuId}`, {}, await token(endpoint));
  const info: ScuInfo = {
    serialNumber: text(unit.serial_number),
    publicKey: text(unit.public_key),
    zda: text(unit.zda) || 'AT0',
    certificate: text(unit.certificate),
    certificateChain: Array.isArray(unit.certificate_chain) ? unit.certificate_chain.map(text) : [],
  };
  if (!info.serialNumber || !info.publicKey)
    throw new SigningFailed('The signature device named no serial number or key.');
  units.set(key, info);
  return info;
}

/** The unit's ES256 signature of a JWS signing input, base64url. */
export async function scuSign(endpoint: ScuEndpoint, data: string): Promise<string> {
  const answer = await call(endpoint, 'POST', `/scu/${endpoint.scuId}/sign`, { data }, await token(endpoint));
  const signature = text(answer.signature);
  if (Buffer.from(signature, 'base64url').length !== 64)
    throw new SigningFailed('The signature device answered no ES256 signature.');
  return signature;
}
