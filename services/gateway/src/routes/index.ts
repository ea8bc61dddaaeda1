import type { ServiceClients } from '../service-clients.js';
import { healthRoutes } from './health-routes.js';
import type { RouteDefinition } from './route-definition.js';

/** The gateway's route table: one file per domain, concatenated here. */
export const routeTable: RouteDefinition<ServiceClients>[] = [...healthRoutes];
