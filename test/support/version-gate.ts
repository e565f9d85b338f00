// The server's protocol-version check (docs/sync.md, "Versions"; the server's own is
// assertSyncVersion, set by createApp's `syncMinVersion` and tested in
// server/src/sync/push.pg.test.ts) in front of a served app, for client tests that need the
// minimum to change while they run, as a deploy changes it under a phone: a pull, push or
// stream request whose Campo-Sync-Version is below the gate's minimum gets the server's 426
// problem, and every version the gate saw is recorded.
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER, syncVersionOf } from '@campo/shared';

export interface VersionGate {
  /** Requests below this version get 426; 1 lets every device through. */
  minVersion: number;
  /** The version each replication request spoke (null: malformed header). */
  readonly seen: (number | null)[];
  /** How many requests the gate answered 426. */
  refused: number;
  wrap(fetchApp: (req: Request) => Response | Promise<Response>): (req: Request) => Promise<Response>;
}

const SYNC_ROUTE = /\/api\/v1\/sync\/(stream$|[a-z]+\/(pull|push)$)/;

export function versionGate(minVersion = 1): VersionGate {
  const gate: VersionGate = {
    minVersion,
    seen: [],
    refused: 0,
    wrap: (fetchApp) => async (req) => {
      if (!SYNC_ROUTE.test(new URL(req.url).pathname)) return fetchApp(req);
      const version = syncVersionOf(req.headers.get(SYNC_VERSION_HEADER));
      gate.seen.push(version);
      if (version !== null && version < gate.minVersion) {
        gate.refused += 1;
        return Response.json(
          {
            type: 'urn:campo:problem:sync_version_unsupported',
            title: 'Atualize o app',
            status: 426,
            code: 'SYNC_VERSION_UNSUPPORTED',
            detail: 'Atualize o app para continuar sincronizando.',
            minVersion: gate.minVersion,
            currentVersion: Math.max(gate.minVersion, SYNC_PROTOCOL_VERSION),
          },
          { status: 426, headers: { 'content-type': 'application/problem+json; charset=utf-8' } },
        );
      }
      return fetchApp(req);
    },
  };
  return gate;
}
