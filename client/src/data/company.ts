// The company document and the ceilings as the device's store holds them (the settings the
// sync brings), for every field screen that names a price list or prints the company.
import type { Company } from '@campo/shared';
import { map } from 'rxjs';
import { collectionOf } from '../db/database.ts';
import type { SettingsDoc } from '../db/schemas.ts';
import { useStoreObservable } from './hooks.ts';

export function useSettings(id: 'empresa' | 'tetos'): SettingsDoc | null | undefined {
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
