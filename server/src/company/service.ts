// The company's own settings, kept by Campo per tenant: the logo printed on every
// representative's orders and the daily positivation target. Only managers and admins change
// them (the routes check the role before the body is read).
import type { Company } from '@campo/shared';
import type { AuthContext } from '../auth/claims.ts';
import type { Db } from '../db/kysely.ts';
import { scopeOf, type Tx, withScope } from '../db/scope.ts';
import { problems } from '../http/problem.ts';
import { refreshReference } from '../sync/collections.ts';
import { inspectLogo, toDataUrl } from './logo.ts';
import { clearLogo, selectCompany, upsertLogo, upsertMetaPositivacaoDia } from './queries.ts';

export async function readCompany(tx: Tx, idEmpresa: number): Promise<Company> {
  const row = await selectCompany(tx, idEmpresa);
  // A token names a tenant the ERP no longer has: nothing to show.
  if (!row) throw problems.notFound('Empresa');
  return {
    idEmpresa: Number(row.id_empresa),
    name: row.razao_social,
    tradeName: row.nome_fantasia,
    cnpj: row.cnpj,
    stateRegistration: row.inscricao_estadual,
    address: { street: row.endereco, city: row.cidade, uf: row.uf, cep: row.cep },
    phone: row.telefone,
    logoBase64: row.logo,
    metaPositivacaoDia: row.meta_positivacao_dia,
  };
}

export function getCompany(db: Db, auth: AuthContext): Promise<Company> {
  return withScope(db, scopeOf(auth), (tx) => readCompany(tx, auth.idEmpresa));
}

/** Checks the image (type by its bytes, dimensions, completeness) before anything is written. */
export async function setLogo(db: Db, auth: AuthContext, bytes: Uint8Array): Promise<Company> {
  const logo = await inspectLogo(bytes);
  const dataUrl = toDataUrl(logo.mime, bytes);
  return withScope(db, scopeOf(auth), async (tx) => {
    await upsertLogo(tx, auth.idEmpresa, dataUrl);
    await refreshReference(tx, auth.idEmpresa, 'ajustes');
    return readCompany(tx, auth.idEmpresa);
  });
}

/** Removing a logo that is not there is not an error: the result is the same. */
export function removeLogo(db: Db, auth: AuthContext): Promise<void> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clearLogo(tx, auth.idEmpresa);
    await refreshReference(tx, auth.idEmpresa, 'ajustes');
  });
}

export function setMetaPositivacaoDia(db: Db, auth: AuthContext, meta: number): Promise<number | null> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const saved = await upsertMetaPositivacaoDia(tx, auth.idEmpresa, meta);
    await refreshReference(tx, auth.idEmpresa, 'ajustes');
    return saved;
  });
}
