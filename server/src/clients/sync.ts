// Collection cadastros: the clients a representative registered in the field. The form works
// offline; the registration waits in the outbox under its own id and is pushed through
// registerClient, the function behind POST /clients, so a retried push creates one client. A
// refusal (a document already registered, a wrong check digit, an unknown pauta) is not
// stored: it comes back as the master state with a reason per field, to fix and queue again
// under the same id, or to discard. Once created, the client itself arrives in clientes.
import { type SyncOrderReason, type SyncPushRow, type SyncRegistration, ZNewClient } from '@campo/shared';
import { answerOf } from '../changelog/push-answer.ts';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { registerClient } from './register.ts';

function refused(row: SyncPushRow, reasons: SyncOrderReason[]): SyncRegistration {
  const d = row.newDocumentState as Partial<SyncRegistration>;
  return {
    id: row.newDocumentState.id,
    status: 'refused',
    dados: d.dados ?? null,
    idCliente: null,
    razaoSocial: null,
    documento: null,
    reasons,
    criadoEm: null,
    _deleted: false,
  };
}

async function pushOne(db: Db, auth: AuthContext, row: SyncPushRow): Promise<SyncRegistration | null> {
  const state = row.newDocumentState as Partial<SyncRegistration>;
  if (row.newDocumentState._deleted === true || state.status !== 'queued') return null;
  const input = ZNewClient.safeParse({ ...(state.dados as object), id: row.newDocumentState.id });
  if (!input.success) {
    return refused(
      row,
      input.error.issues.map((i) => ({
        code: 'VALIDATION',
        message: `${i.path.join('.') || 'cadastro'}: ${i.message}`,
      })),
    );
  }
  try {
    const { body } = await registerClient(db, auth, input.data);
    return {
      id: body.id,
      status: 'created',
      dados: null,
      idCliente: body.idCliente,
      razaoSocial: body.razaoSocial,
      documento: body.documento,
      reasons: [],
      criadoEm: body.criadoEm,
      _deleted: false,
    };
  } catch (err) {
    if (!(err instanceof DomainError) || err.status >= 500 || err.status === 403) throw err;
    return refused(row, [{ code: err.code, message: err.detail }]);
  }
}

/** The server's clock: it reaches the device by pull, never as a conflict (changelog/push-answer.ts). */
const STAMPS = ['criadoEm'] as const;

export async function pushRegistrations(db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  const masters: (SyncRegistration | null)[] = [];
  for (const row of rows) masters.push(await pushOne(db, auth, row));
  return answerOf(rows, masters, STAMPS);
}
