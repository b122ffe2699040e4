/**
 * The row of a query that always answers exactly one: an aggregate without `group by`, `select exists`,
 * `nextval`, or the `returning` of a write that cannot miss. No row there is a bug, not a case to handle.
 */
export function oneRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('A query that always answers one row answered none');
  return row;
}
