/** Structured logging: one JSON object per line on stdout, nothing when silenced (tests). */
export type Fields = Record<string, unknown>;

let silent = false;
export function setLogSilent(value: boolean): void {
  silent = value;
}

function write(level: 'info' | 'warn' | 'error', msg: string, fields: Fields): void {
  if (silent) return;
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
}

export const log = {
  info: (msg: string, fields: Fields = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Fields = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Fields = {}) => write('error', msg, fields),
};
