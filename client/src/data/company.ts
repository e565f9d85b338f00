// The company document and the ceilings as the device's store holds them (the settings the
// sync brings), for every field screen that names a price list or prints the company.
import { type Company, DEFAULT_MONEY_RULES, type ErpEncoding, type MoneyRules } from '@campo/shared';
import { map } from 'rxjs';
import { collectionOf } from '../db/database.ts';
import type { SettingsDoc } from '../db/schemas.ts';
import { useStoreObservable } from './hooks.ts';

export function useSettings(id: SettingsDoc['id']): SettingsDoc | null | undefined {
  return useStoreObservable<SettingsDoc | null | undefined>(
    (s) =>
      collectionOf(s.db, 'ajustes')
        .findOne(id)
        .$.pipe(map((d) => (d ? (d.toJSON() as SettingsDoc) : null))),
    undefined,
    [id],
  );
}

export function useCompany(): Company | null | undefined {
  const doc = useSettings('empresa');
  return doc === undefined ? undefined : (doc?.empresa ?? null);
}

/** A price list's name as the ERP calls it ('Tabela Varejo'); the number until the company document names it. */
export function usePautaName(): (idPauta: number) => string {
  const pautas = useCompany()?.pautas ?? [];
  return (idPauta) => pautas.find((p) => p.id === idPauta)?.descricao || `Pauta ${idPauta}`;
}

/** The ERP database's encoding, which the cart previews ERP-bound text with; LATIN1 (the strictest) until the company document names it. */
export function useErpEncoding(): ErpEncoding {
  return useCompany()?.erpEncoding ?? 'LATIN1';
}

/** The tenant's credit policy and flex settings; the defaults until the company document names them (docs/credit-and-flex.md). */
export function useMoneyRules(): MoneyRules {
  return useCompany()?.moneyRules ?? DEFAULT_MONEY_RULES;
}

/**
 * The representative's flex balance and latest ledger entries (document 'flex'); null before the
 * first sync of a server that sends it, undefined while the store opens.
 */
export function useFlexBalance(): NonNullable<SettingsDoc['flex']> | null | undefined {
  const doc = useSettings('flex');
  return doc === undefined ? undefined : (doc?.flex ?? null);
}
