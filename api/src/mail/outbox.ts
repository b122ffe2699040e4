import type { Knex } from 'knex';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { log } from '../foundations/log.ts';

// Mails are written to the outbox inside the transaction that causes them and sent after commit,
// so a mail exists exactly when its cause does, and a failing mail server never undoes a payment.

export interface OutgoingMail {
  /** What the mail is about, e.g. `pdf-links`; with `orderId` it makes the mail unique. */
  kind: string;
  orderId: number | null;
  recipient: string;
  subject: string;
  text: string;
}

/** Queues a mail in the caller's transaction; a second one of the same kind for the same order is dropped. */
export async function queueMail(trx: Knex.Transaction, mail: OutgoingMail): Promise<void> {
  await trx('outbox')
    .insert({
      kind: mail.kind,
      order_id: mail.orderId,
      recipient: mail.recipient,
      subject: mail.subject,
      text: mail.text,
    })
    .onConflict()
    .ignore();
}

/** After this many failed attempts a mail is given up ('failed'); staff still see it. */
const maxAttempts = 12;
/** How long a claimed mail is left to its sender before another process may try it (a crash mid-send). */
const leaseMinutes = 10;

/** Minutes until the next try after `attempts` failures: 1, 2, 4, … capped at six hours. */
const retryDelayMinutes = (attempts: number) => Math.min(2 ** (attempts - 1), 6 * 60);

const transports = new Map<string, Transporter>();

function transport(smtpUrl: string): Transporter {
  let found = transports.get(smtpUrl);
  if (!found) {
    found = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transports.set(smtpUrl, found);
  }
  return found;
}

interface ClaimedMail {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  attempts: number;
}

/**
 * Takes the next due mail for this process: `skip locked` lets concurrent senders pass each other,
 * and the lease (next_attempt_at moved ahead) keeps the mail from every other sender while this one
 * talks to the mail server outside any transaction.
 */
async function claimDueMail(db: Db): Promise<ClaimedMail | undefined> {
  const { rows } = await db.raw<{ rows: ClaimedMail[] }>(
    `update outbox set attempts = attempts + 1, next_attempt_at = now() + make_interval(mins => ?)
     where id = (select id from outbox where status = 'queued' and next_attempt_at <= now()
                 order by next_attempt_at, id limit 1 for update skip locked)
     returning id, kind, recipient, subject, text, attempts`,
    [leaseMinutes],
  );
  return rows[0];
}

async function sendOne(db: Db, config: Config & { smtpUrl: string }, mail: ClaimedMail): Promise<void> {
  try {
    await transport(config.smtpUrl).sendMail({
      from: config.mailFrom,
      to: mail.recipient,
      subject: mail.subject,
      text: mail.text,
    });
    await db('outbox').where({ id: mail.id }).update({ status: 'sent', sent_at: db.fn.now(), last_error: null });
    log.info('mail sent', { mail: mail.id, kind: mail.kind, attempts: mail.attempts });
  } catch (error) {
    const giveUp = mail.attempts >= maxAttempts;
    const message = String((error as Error)?.message ?? error).slice(0, 1000);
    await db('outbox')
      .where({ id: mail.id })
      .update({
        status: giveUp ? 'failed' : 'queued',
        last_error: message,
        next_attempt_at: db.raw('now() + make_interval(mins => ?)', [retryDelayMinutes(mail.attempts)]),
      });
    // The server's message may quote the recipient; the log gets the mail's id and the error code only.
    log.warn(giveUp ? 'mail given up' : 'mail failed, will retry', {
      mail: mail.id,
      kind: mail.kind,
      attempts: mail.attempts,
      code: (error as { code?: string })?.code,
    });
  }
}

/**
 * Works through the due mails once: sends them over SMTP, or, without a mail server, keeps them as
 * 'stored' for staff to read. Answers how many mails it handled.
 */
export async function processOutbox(db: Db, config: Config): Promise<number> {
  const { smtpUrl } = config;
  if (!smtpUrl) return db('outbox').where({ status: 'queued' }).update({ status: 'stored' });
  let handled = 0;
  for (let mail = await claimDueMail(db); mail; mail = await claimDueMail(db)) {
    await sendOne(db, { ...config, smtpUrl }, mail);
    handled++;
  }
  return handled;
}

/** Per database: a pass is running, and whether another was asked for meanwhile (with the latest configuration). */
const passes = new WeakMap<Db, { again: boolean; config: Config }>();

/**
 * Sends what is due, in the background: call it after committing a transaction that queued mails.
 * It returns at once and never throws; mails that fail stay queued for the worker's retries.
 */
export function kickOutbox(db: Db, config: Config): void {
  const running = passes.get(db);
  if (running) {
    Object.assign(running, { again: true, config });
    return;
  }
  const pass = { again: true, config };
  passes.set(db, pass);
  void (async () => {
    try {
      while (pass.again) {
        pass.again = false;
        await processOutbox(db, pass.config);
      }
    } catch (error) {
      log.error('outbox pass failed', { error: String((error as Error)?.stack ?? error) });
    } finally {
      passes.delete(db);
    }
  })();
}

/** How often the worker looks for mails whose retry is due. */
const workerIntervalMs = 30_000;

/**
 * Retries due mails for as long as the process runs. Every API process may run one: the claim in
 * `claimDueMail` makes sure a mail is sent by one of them only.
 */
export function startOutboxWorker(db: Db, config: Config): { stop(): void } {
  kickOutbox(db, config);
  const timer = setInterval(() => kickOutbox(db, config), workerIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
