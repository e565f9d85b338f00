// Which price list the catalog shows. A representative quotes for a client, so the prices
// follow a client's pauta: the one chosen from the client's page (/catalogo?cliente=<id>),
// else the first client of the portfolio; any other pauta can be picked by hand. The default
// follows the store as it fills: a catalog opened during the first download, with nothing on
// the phone yet, takes the portfolio's pauta when the clients arrive (issue 50), never keeping
// a choice made while the store was empty.
import { clientDisplayName } from '@campo/shared/format';
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { combineLatest, map, of } from 'rxjs';
import { usePautaName } from '../../data/company.ts';
import type { Store } from '../../data/store.ts';
import { type ClientDoc, collectionOf, type ProductDoc } from '../../db/index.ts';

export interface PriceFor {
  idPauta: number | null;
  /** The client whose pauta it is; null when the pauta was picked by hand. */
  client: { id: string; name: string } | null;
  /**
   * How it was chosen: from a client's page and by hand, it holds; the default follows the
   * store (the first client of the portfolio, else the first pauta) as it changes.
   */
  by: 'default' | 'client' | 'hand';
}

// Module-level: the choice holds while the representative moves between the list and a product.
export const priceFor = signal<PriceFor | null>(null);
/** The store the choice was made in: another user's (after a logout) starts afresh. */
let choiceStore: Store | null = null;

function clientChoice(c: ClientDoc, by: PriceFor['by']): PriceFor {
  return { idPauta: c.idPauta, client: { id: c.id, name: clientDisplayName(c) || `Cliente ${c.id}` }, by };
}

const samePrice = (a: PriceFor | null, b: PriceFor) =>
  a !== null &&
  a.idPauta === b.idPauta &&
  a.client?.id === b.client?.id &&
  a.client?.name === b.client?.name &&
  a.by === b.by;

function choose(next: PriceFor): void {
  if (!samePrice(priceFor.peek(), next)) priceFor.value = next;
}

/**
 * Keeps the pauta chosen (from ?cliente=, or the default while nothing was chosen) and lists
 * the pautas the device knows, both following the store as the first download fills it.
 */
export function usePriceFor(s: Store, clienteId: string | undefined): number[] {
  const [pautas, setPautas] = useState<number[]>([]);
  useEffect(() => {
    if (choiceStore !== s) {
      choiceStore = s;
      priceFor.value = null;
    }
    const clientes = collectionOf(s.db, 'clientes');
    // Every product carries a price on every pauta of the tenant: one product lists them.
    const pautas$ = collectionOf(s.db, 'produtos')
      .findOne()
      .$.pipe(
        map((p) => ((p?.toJSON() as ProductDoc | undefined)?.prices ?? []).map((x) => x.idPauta).sort((a, b) => a - b)),
      );
    const first$ = clientes.findOne({ selector: {}, sort: [{ busca: 'asc' }] }).$;
    const asked$ = clienteId ? clientes.findOne(clienteId).$ : of(null);
    /** ?cliente= names a client: its pauta replaces any choice once, then a hand pick holds. */
    let askedApplied = false;
    const sub = combineLatest([pautas$, first$, asked$]).subscribe(([ids, first, asked]) => {
      setPautas((old) => (old.join() === ids.join() ? old : ids));
      const current = priceFor.peek();
      if (asked) {
        const c = asked.toJSON() as ClientDoc;
        if (!askedApplied || (current?.by === 'client' && current.client?.id === c.id)) {
          askedApplied = true;
          choose(clientChoice(c, 'client'));
          return;
        }
      }
      if (current && current.by !== 'default') return;
      choose(
        first
          ? clientChoice(first.toJSON() as ClientDoc, 'default')
          : { idPauta: ids[0] ?? null, client: null, by: 'default' },
      );
    });
    return () => sub.unsubscribe();
  }, [s, clienteId]);
  return pautas;
}

export function PautaPicker(props: { pautas: number[] }) {
  const pautaName = usePautaName();
  const current = priceFor.value;
  const options = [...props.pautas];
  if (current?.idPauta != null && !options.includes(current.idPauta)) options.unshift(current.idPauta);
  return (
    <div class="pauta-picker">
      <label for="catalogo-pauta">Preços da pauta</label>
      <select
        id="catalogo-pauta"
        value={current?.idPauta != null ? String(current.idPauta) : ''}
        onChange={(e) => {
          const v = e.currentTarget.value;
          priceFor.value = { idPauta: v === '' ? null : Number(v), client: null, by: 'hand' };
        }}
      >
        {current?.idPauta == null && <option value="">Sem pauta</option>}
        {options.map((p) => (
          <option key={p} value={String(p)}>
            {pautaName(p)}
          </option>
        ))}
      </select>
      <small>
        {current?.client ? (
          <>
            Pauta do cliente <strong>{current.client.name}</strong>.{' '}
          </>
        ) : null}
        Para ver os preços de outro cliente, abra-o em <a href="/clientes">Clientes</a>.
      </small>
    </div>
  );
}
