import type { RouteDef } from '../http/routes.ts';

export const settingsRoutes: RouteDef[] = [];
