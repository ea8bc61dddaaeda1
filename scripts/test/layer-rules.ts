// The direction of imports inside a service (docs/development.md "Service layout"), as data:
// which layer a file belongs to, which layers it may import, and the exceptions with their reason.
// Checked by import-direction.test.ts (unit project) over the graph of import-graph.ts.
import { relative, sep } from 'node:path';
import type { ImportGraph } from './import-graph.js';

/**
 * - `root`: the composition root and its areas (`main.ts`, `<name>-service.ts`, `<area>-area.ts`,
 *   any other file at the top of `src/`): the only files that build and wire everything.
 * - `shared`: `deps.ts` and `config.ts`, the types and settings every layer may name.
 * - `port`: a file of `domain/` that only declares what the domain needs from outside
 *   (`*-port.ts`, `*-ports.ts`, `contract.ts`, `*-contract.ts`): data/ and adapters/ implement or read it.
 * - `other`: a folder the table does not know (the sandbox worker, a process of its own): only the
 *   composition root and its own folder may import it, and it only its own folder and `shared`.
 */
export type Layer = 'root' | 'shared' | 'grpc' | 'events' | 'domain' | 'port' | 'data' | 'adapters' | 'other';

/** Which layers a file of each layer may import; a layer not listed is a wrong-way import. */
export const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  root: ['root', 'shared', 'grpc', 'events', 'domain', 'port', 'data', 'adapters', 'other'],
  shared: ['shared', 'domain', 'port', 'data', 'adapters'],
  grpc: ['grpc', 'domain', 'port', 'shared'],
  events: ['events', 'domain', 'port', 'shared'],
  domain: ['domain', 'port', 'shared'],
  port: ['port', 'domain', 'shared'],
  data: ['data', 'port', 'shared'],
  adapters: ['adapters', 'port', 'shared'],
  other: ['shared'],
};

/** Services with a layout of their own, not checked by layer. */
export const OWN_LAYOUT: Readonly<Record<string, string>> = {
  gateway: 'the HTTP edge: routes/, http/, auth/, openapi/, pages/ — no domain, no data of its own',
};

/**
 * Imports allowed against MAY_IMPORT. `from` and `to` are globs over `<service>/<path under src>`
 * (`*` within a folder, `**` across folders).
 */
export interface LayerException {
  from: string;
  to: string;
  reason: string;
}

export const EXCEPTIONS: readonly LayerException[] = [
  {
    from: '*/domain/**',
    to: '*/data/**',
    reason:
      "the house's four hops (route → RPC handler → use case → repository): a use case calls its " +
      "service's repository functions directly; a repository has one implementation, so a port per " +
      'repository would be an interface with nothing else behind it',
  },
  {
    from: '*/grpc/**',
    to: '*/data/**',
    reason:
      'a handler encodes the rows it is given (RunRow, StoredVersion, ChannelTestAuditDoc) and answers ' +
      'lists with no rule of their own (listUsers, listRoles, findUserSummaries) straight from the ' +
      'repository: a use case that only forwards would be a hop with nothing in it',
  },
  {
    from: '*/events/**',
    to: '*/data/**',
    reason:
      'projections: a consumer that stores what an event says (agent directory, telemetry facts, ' +
      'the LISTEN channel name of the NOTIFY side) has no rule between event and row',
  },
  {
    from: '*/config.ts',
    to: '*/grpc/internal-callers.ts',
    reason:
      'the config checks its service-token settings against the table of internal-only RPCs and their callers',
  },
  {
    from: 'workflows/adapters/sandbox-runner.ts',
    to: 'workflows/sandbox-worker/protocol.ts',
    reason: 'the message shapes both sides of the sandbox worker pipe speak',
  },
];

export interface WrongWayImport {
  from: string;
  to: string;
  fromLayer: Layer;
  toLayer: Layer;
}

/** `services/<service>/src/<path>` → { service, path }; undefined outside services' src/. */
function locate(file: string, root: string): { service: string; path: string } | undefined {
  const parts = relative(root, file).split(sep);
  if (parts[0] !== 'services' || parts[2] !== 'src' || parts.length < 4) return undefined;
  return { service: parts[1]!, path: parts.slice(3).join('/') };
}

export function layerOf(path: string): Layer {
  const [top, ...rest] = path.split('/');
  if (rest.length === 0) return top === 'deps.ts' || top === 'config.ts' ? 'shared' : 'root';
  if (top === 'domain') return /(-ports?|[/-]contract)\.ts$/.test(`/${path}`) ? 'port' : 'domain';
  if (top === 'grpc' || top === 'events' || top === 'data' || top === 'adapters') return top;
  return 'other';
}

const topFolder = (path: string): string => path.split('/')[0]!;

function globRegExp(glob: string): RegExp {
  const body = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${body}$`);
}

const matches = (exception: LayerException, found: WrongWayImport): boolean =>
  globRegExp(exception.from).test(found.from) && globRegExp(exception.to).test(found.to);

/** Every import of the graph that MAY_IMPORT refuses, exceptions not yet applied. */
export function refusedImports(graph: ImportGraph, root: string): WrongWayImport[] {
  const found: WrongWayImport[] = [];
  for (const [file, targets] of graph) {
    const from = locate(file, root);
    if (!from || from.service in OWN_LAYOUT) continue;
    for (const target of targets) {
      const to = locate(target, root);
      if (!to || to.service !== from.service) continue;
      const fromLayer = layerOf(from.path);
      const toLayer = layerOf(to.path);
      if (MAY_IMPORT[fromLayer].includes(toLayer)) continue;
      // A folder the table does not know may import itself (the sandbox worker's own files).
      if (fromLayer === 'other' && toLayer === 'other' && topFolder(from.path) === topFolder(to.path))
        continue;
      found.push({
        from: `${from.service}/${from.path}`,
        to: `${to.service}/${to.path}`,
        fromLayer,
        toLayer,
      });
    }
  }
  return found;
}

/** Every import of the graph that goes against MAY_IMPORT and is no listed exception. */
export function wrongWayImports(
  graph: ImportGraph,
  root: string,
  exceptions: readonly LayerException[] = EXCEPTIONS,
): WrongWayImport[] {
  return refusedImports(graph, root).filter((found) => !exceptions.some((e) => matches(e, found)));
}

/** Exceptions no import needs any more (the table lists only what is still true). */
export function unusedExceptions(
  graph: ImportGraph,
  root: string,
  exceptions: readonly LayerException[] = EXCEPTIONS,
): LayerException[] {
  const refused = refusedImports(graph, root);
  return exceptions.filter((e) => !refused.some((found) => matches(e, found)));
}
