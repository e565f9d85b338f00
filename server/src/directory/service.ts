import type { DirectoryPautas, DirectoryReps, DirectorySupervisors } from '@campo/shared';
import { scopeOf, teamOf } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import type { AuthContext } from '../http/env.ts';
import { selectPautaExists, selectPautas, selectRep, selectReps, selectSupervisors } from './queries.ts';

const present = <T>(v: T | null): v is T => v !== null;

export async function listReps(db: Db, auth: AuthContext): Promise<DirectoryReps> {
  return withScope(db, scopeOf(auth), async (tx) => {
    // A supervisor chooses among their own team only, as everywhere else.
    const rows = await selectReps(tx, auth.idEmpresa, teamOf(auth));
    return {
      items: rows.flatMap((r) =>
        r.cod_vendedor === null
          ? []
          : [{ codVendedor: r.cod_vendedor, nome: r.nome, codSupervisor: r.cod_supervisor, ativo: r.ativo ?? false }],
      ),
    };
  });
}

export async function listSupervisors(db: Db, auth: AuthContext): Promise<DirectorySupervisors> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const rows = await selectSupervisors(tx, auth.idEmpresa);
    return {
      items: rows.flatMap((r) =>
        r.cod_supervisor === null ? [] : [{ codSupervisor: r.cod_supervisor, nome: r.nome, ativo: r.ativo ?? false }],
      ),
    };
  });
}

export async function listPautas(db: Db, auth: AuthContext): Promise<DirectoryPautas> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const rows = await selectPautas(tx, auth.idEmpresa);
    const items = rows
      .filter((r) => present(r.id_pauta))
      .map((r) => ({ idPauta: r.id_pauta as number, descricao: r.descricao, ativo: r.ativo ?? false }));
    items.sort(
      (a, b) => Number(b.ativo) - Number(a.ativo) || (a.descricao ?? '').localeCompare(b.descricao ?? '', 'pt-BR'),
    );
    return { items };
  });
}

/** Whether the tenant has this pauta; for a service that checks one inside its own transaction. */
export async function pautaExists(tx: Tx, idEmpresa: number, idPauta: number): Promise<boolean> {
  return (await selectPautaExists(tx, idEmpresa, idPauta)) !== undefined;
}

/**
 * A representative of the tenant (active or not) with their supervisor, or undefined; for a
 * service that checks a code or names a representative inside its own transaction.
 */
export function findRep(tx: Tx, idEmpresa: number, codVendedor: number) {
  return selectRep(tx, idEmpresa, codVendedor);
}
