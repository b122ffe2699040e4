import type { Knex } from 'knex';
import * as catalogue from './001_catalogue.ts';

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Forward-only, in order. A new migration is a new file listed here. */
export const migrations: Migration[] = [{ name: '001_catalogue', ...catalogue }];
