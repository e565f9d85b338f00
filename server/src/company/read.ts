// The company as the API shows it, read by the service and by the ajustes documents alike.
import type { Company } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import { notFound } from '../errors.ts';
import { selectCompany, selectPautaNames, selectPaymentTerms } from './queries.ts';

export async function readCompany(tx: Tx, idEmpresa: number): Promise<Company> {
  const row = await selectCompany(tx, idEmpresa);
  // A token names a tenant the ERP no longer has: nothing to show.
  if (!row) throw notFound('Empresa');
  const [terms, pautas] = [await selectPaymentTerms(tx, idEmpresa), await selectPautaNames(tx, idEmpresa)];
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
    paymentTerms: terms.map((t) => ({ id: t.id_condicao as number, descricao: t.descricao ?? '' })),
    pautas: pautas.map((p) => ({ id: p.id_pauta as number, descricao: p.descricao ?? `Pauta ${p.id_pauta}` })),
  };
}
