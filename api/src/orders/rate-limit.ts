import type { Knex } from 'knex';
import { limitRate } from '../http/rate-limit.ts';

/** New orders of one client address per minute (ORDER_RATE_LIMIT), shared by every API process. */
export const limitOrderRate = (db: Knex, address: string, limit: number): Promise<void> => limitRate(db, 'order', address, limit);
