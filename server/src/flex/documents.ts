// The representative's flex balance on their device: document 'flex' of collection ajustes,
// one per representative (key 'flex@<cod>', scope the representative, as the ceilings'
// 'tetos'), with the balance and the latest FLEX_SYNC_ENTRIES entries of the ledger. Every
// move writes it again in the moving transaction (service.ts), so the phone hears of a credit
// or an adjustment as soon as it commits; the collection's refresh builds every one.
import { decodeLossless, FLEX_SYNC_ENTRIES, type FlexEntry, type FlexMove } from '@campo/shared';
import { touchDocuments } from '../changelog/changelog.ts';
import type { SyncDoc } from '../changelog/collection.ts';
import type { Tx } from '../db/scope.ts';
import { type EntryRow, selectSyncBalances, selectSyncEntries } from './queries.ts';

export const FLEX_DOCUMENT = 'flex';
/** A representative's document's key in the change log. */
export const flexDocumentKey = (codVendedor: number) => `${FLEX_DOCUMENT}@${codVendedor}`;

export const entryOf = (r: EntryRow): FlexEntry => ({
  id: Number(r.id),
  codVendedor: r.cod_vendedor,
  tipo: r.tipo as FlexMove,
  valor: Number(r.valor),
  idPedido: r.id_pedido === null ? null : Number(r.id_pedido),
  numPedSar: r.num_ped_sar === null ? null : Number(r.num_ped_sar),
  motivo: r.motivo === null ? null : decodeLossless(r.motivo),
  criadoPor: r.criado_por,
  criadoEm: new Date(r.criado_em).toISOString(),
});

/** One representative's document, from their balance and their latest entries (newest first). */
export function flexDocument(codVendedor: number, saldo: number, lancamentos: FlexEntry[]): SyncDoc {
  return {
    chave: flexDocumentKey(codVendedor),
    escopo: codVendedor,
    documento: FLEX_DOCUMENT,
    doc: {
      id: FLEX_DOCUMENT,
      empresa: null,
      tetos: null,
      flex: { codVendedor, saldo, lancamentos: lancamentos.slice(0, FLEX_SYNC_ENTRIES) },
      _deleted: false,
    },
  };
}

/**
 * The documents of every representative of the tenant (codVendedores null) or of those given,
 * in two statements whatever their number: a representative without moves has a balance of
 * 0 and no entries.
 */
export async function loadFlexDocs(tx: Tx, idEmpresa: number, codVendedores: number[] | null): Promise<SyncDoc[]> {
  const [balances, entries] = await Promise.all([
    selectSyncBalances(tx, idEmpresa, codVendedores),
    selectSyncEntries(tx, idEmpresa, codVendedores, FLEX_SYNC_ENTRIES),
  ]);
  const byRep = new Map<number, FlexEntry[]>();
  for (const r of entries) {
    const list = byRep.get(r.cod_vendedor) ?? [];
    list.push(entryOf(r));
    byRep.set(r.cod_vendedor, list);
  }
  return balances.map((b) => flexDocument(b.cod_vendedor, Number(b.saldo), byRep.get(b.cod_vendedor) ?? []));
}

/** The collection's loader's part: the documents of the keys asked for ('flex@<cod>'), or all. */
export function loadFlexDocsOfKeys(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  if (chaves === null) return loadFlexDocs(tx, idEmpresa, null);
  const reps = chaves.filter((k) => k.startsWith(`${FLEX_DOCUMENT}@`)).map((k) => Number(k.split('@')[1]));
  return reps.length === 0 ? Promise.resolve([]) : loadFlexDocs(tx, idEmpresa, reps);
}

/** Writes the representative's document as it stands now into the change log, in the caller's transaction. */
export async function relogFlex(tx: Tx, idEmpresa: number, codVendedor: number): Promise<void> {
  await touchDocuments(tx, idEmpresa, 'ajustes', codVendedor, await loadFlexDocs(tx, idEmpresa, [codVendedor]));
}
