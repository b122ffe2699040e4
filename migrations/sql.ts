import type { Knex } from 'knex';

/**
 * Runs a script of SQL statements one by one: knex sends raw SQL as a prepared statement, which
 * takes a single command. Statements end with a semicolon at the end of a line. knex would read
 * every `?` (as in a regular expression) as a parameter, so they are escaped to stay literal.
 */
export async function runSql(knex: Knex, script: string): Promise<void> {
  for (const statement of script.split(/;\s*$/m)) {
    if (statement.replace(/--.*$/gm, '').trim()) await knex.raw(statement.replace(/\?/g, '\\?'));
  }
}
