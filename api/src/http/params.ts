/**
 * A path parameter of the matched route. The router sets every `:name` of the route's path, so a missing
 * one means the handler asks for a name its path does not have: a programming error, not bad input.
 */
export function pathParam(ctx: { params: Record<string, string | undefined> }, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`The route has no path parameter :${name}`);
  return value;
}
