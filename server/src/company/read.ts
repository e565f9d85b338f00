// The company as the API shows it, read by the service and by the ajustes documents alike,
// and its money rules, which other domains (orders, flex) read inside their own transaction.
import { type Company, type CreditPolicy, DEFAULT_MONEY_RULES, isErpEncoding, type MoneyRules } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import { notFound } from '../errors.ts';
import { selectCompany, selectMoneyRules, selectPautaNames, selectPaymentTerms } from './queries.ts';

interface MoneyRulesRow {
  politica_credito: string | null;
  flex_percentual_credito: unknown;
  flex_maximo_pontos: unknown;
}

/** A tenant without a row in app.config_empresa (or a left join that found none) has the defaults. */
function moneyRulesFrom(row: MoneyRulesRow | undefined): MoneyRules {
  if (!row || row.politica_credito === null) return { ...DEFAULT_MONEY_RULES };
  return {
    // The column's check constraint admits only the three policies.
    creditPolicy: row.politica_credito as CreditPolicy,
    flexCreditSharePercent: Number(row.flex_percentual_credito),
    flexMaxBeyondCeilingPoints: Number(row.flex_maximo_pontos),
  };
}

/** The tenant's credit policy and flex settings, inside the caller's transaction. */
export async function moneyRulesOf(tx: Tx, idEmpresa: number): Promise<MoneyRules> {
  return moneyRulesFrom(await selectMoneyRules(tx, idEmpresa));
}

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
    moneyRules: moneyRulesFrom(row),
    // Provisioning refuses any other encoding.
    ...(isErpEncoding(row.codificacao) ? { erpEncoding: row.codificacao } : {}),
  };
}
