// The server's protocol-version check (docs/sync.md, "Versions") in front of a served app, for
// client tests written before createApp took `syncMinVersion`: a pull, push or stream request
// whose Campo-Sync-Version is below the gate's minimum gets the server's 426 problem. The
// minimum can be changed while the test runs (the server deployed with a newer minimum, then
// the app updated), and every version the gate saw is recorded.
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
            type: 'https://campo.dev/problems/sync-version-unsupported',
            title: 'Versão do aplicativo não suportada',
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
