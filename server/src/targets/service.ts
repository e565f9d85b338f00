// Monthly targets per representative: managers set them for a month (one table per team on
// the screen), and may start a month from the previous one. The representative dashboard and
// the supervisor ranking read them.
import type { TargetsPage, TargetsUpdate } from '@campo/shared';
import { scopeOf, teamOf } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { validationFailed } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import * as q from './queries.ts';

export async function listTargets(
  db: Db,
  auth: AuthContext,
  month: string,
  codSupervisor?: number,
): Promise<TargetsPage> {
  // A supervisor sees their own team whatever they ask; managers and admins any team or all.
  const team = teamOf(auth, codSupervisor);
  const rows = await withScope(db, scopeOf(auth), (tx) => q.selectTargets(tx, auth.idEmpresa, month, team));
  return {
    mes: month,
    items: rows.map((r) => ({
      codVendedor: r.cod_vendedor as number,
      nome: r.nome ?? '',
      codSupervisor: r.cod_supervisor,
      valorMeta: r.valor_meta,
    })),
  };
}

export async function setTargets(db: Db, auth: AuthContext, month: string, input: TargetsUpdate): Promise<TargetsPage> {
  await withScope(db, scopeOf(auth), async (tx) => {
    const codes = input.metas.map((m) => m.codVendedor);
    const known = new Set((await q.selectRepCodes(tx, auth.idEmpresa, codes)).map((r) => r.cod_vendedor));
    const unknown = input.metas.flatMap((m, i) =>
      known.has(m.codVendedor)
        ? []
        : [
            {
              path: `body.metas.${i}.codVendedor`,
              message: `o representante ${m.codVendedor} não existe nesta empresa`,
            },
          ],
    );
    if (unknown.length) throw validationFailed(unknown);
    for (const m of input.metas) {
      if (m.valorMeta === null) await q.deleteTarget(tx, auth.idEmpresa, month, m.codVendedor);
      else await q.upsertTarget(tx, auth.idEmpresa, month, m.codVendedor, m.valorMeta);
    }
  });
  return listTargets(db, auth, month);
}

export function copyTargets(db: Db, auth: AuthContext, month: string) {
  return withScope(db, scopeOf(auth), async (tx) => ({
    mes: month,
    ...(await q.copyPreviousMonth(tx, auth.idEmpresa, month)),
  }));
}
