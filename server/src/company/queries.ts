// Every SQL statement of the company settings (app.config_empresa, one row per tenant) and
// the company's own data from the ERP. Each names the tenant itself.
import type { MoneyRules } from '@campo/shared';
import { sql } from 'kysely';
import type { Tx } from '../db/scope.ts';

/** The head office (the tenant itself, not a branch) with Campo's settings for it. */
export function selectCompany(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_empresas as e')
    .leftJoin('app.config_empresa as c', 'c.id_empresa', 'e.id_empresa')
    .select([
      'e.id_empresa',
      'e.razao_social',
      'e.nome_fantasia',
      'e.cnpj',
      'e.inscricao_estadual',
      'e.endereco',
      'e.cidade',
      'e.uf',
      'e.cep',
      'e.telefone',
      'c.logo',
      'c.meta_positivacao_dia',
      'c.politica_credito',
      'c.flex_percentual_credito',
      'c.flex_maximo_pontos',
      sql<string>`getdatabaseencoding()`.as('codificacao'),
    ])
    .where('e.id_empresa', '=', idEmpresa)
    .where('e.matriz', '=', true)
    .executeTakeFirst();
}

export type CompanyRow = NonNullable<Awaited<ReturnType<typeof selectCompany>>>;

/** Every price list of the tenant by name, the head office's definition first. */
export function selectPautaNames(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_pautas')
    .distinctOn('id_pauta')
    .select(['id_pauta', 'descricao'])
    .where('id_empresa', '=', idEmpresa)
    .orderBy('id_pauta')
    .orderBy(sql`id_filial <> id_empresa`)
    .execute();
}

/**
 * The tenant's active payment terms, by name. A term id the head office and a branch both
 * define is listed once, as the head office names it.
 */
export function selectPaymentTerms(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_condicoes_pagamento')
    .distinctOn('id_condicao')
    .select(['id_condicao', 'descricao'])
    .where('id_empresa', '=', idEmpresa)
    .where('ativo', '=', true)
    .orderBy('id_condicao')
    .orderBy(sql`id_filial <> id_empresa`)
    .execute();
}

export async function upsertLogo(tx: Tx, idEmpresa: number, logo: string): Promise<void> {
  await tx
    .insertInto('app.config_empresa')
    .values({ id_empresa: idEmpresa, logo })
    .onConflict((oc) =>
      oc.column('id_empresa').doUpdateSet((eb) => ({ logo: eb.ref('excluded.logo'), atualizado_em: eb.fn('now') })),
    )
    .execute();
}

export async function clearLogo(tx: Tx, idEmpresa: number): Promise<void> {
  await tx
    .updateTable('app.config_empresa')
    .set((eb) => ({ logo: null, atualizado_em: eb.fn('now') }))
    .where('id_empresa', '=', idEmpresa)
    .execute();
}

export async function upsertMetaPositivacaoDia(tx: Tx, idEmpresa: number, meta: number): Promise<number | null> {
  const row = await tx
    .insertInto('app.config_empresa')
    .values({ id_empresa: idEmpresa, meta_positivacao_dia: meta })
    .onConflict((oc) =>
      oc.column('id_empresa').doUpdateSet((eb) => ({
        meta_positivacao_dia: eb.ref('excluded.meta_positivacao_dia'),
        atualizado_em: eb.fn('now'),
      })),
    )
    .returning('meta_positivacao_dia')
    .executeTakeFirstOrThrow();
  return row.meta_positivacao_dia;
}

/** The tenant's credit policy and flex settings; undefined when it has no row (the defaults). */
export function selectMoneyRules(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.config_empresa')
    .select(['politica_credito', 'flex_percentual_credito', 'flex_maximo_pontos'])
    .where('id_empresa', '=', idEmpresa)
    .executeTakeFirst();
}

export async function upsertMoneyRules(tx: Tx, idEmpresa: number, rules: MoneyRules): Promise<void> {
  await tx
    .insertInto('app.config_empresa')
    .values({
      id_empresa: idEmpresa,
      politica_credito: rules.creditPolicy,
      flex_percentual_credito: rules.flexCreditSharePercent,
      flex_maximo_pontos: rules.flexMaxBeyondCeilingPoints,
    })
    .onConflict((oc) =>
      oc.column('id_empresa').doUpdateSet((eb) => ({
        politica_credito: eb.ref('excluded.politica_credito'),
        flex_percentual_credito: eb.ref('excluded.flex_percentual_credito'),
        flex_maximo_pontos: eb.ref('excluded.flex_maximo_pontos'),
        atualizado_em: eb.fn('now'),
      })),
    )
    .execute();
}
