// Which price list the catalog shows. A representative quotes for a client, so the prices
// follow a client's pauta: the one chosen from the client's page (/catalogo?cliente=<id>),
// else the first client of the portfolio; any other pauta can be picked by hand.
import { clientDisplayName } from '@campo/shared/format';
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { usePautaName } from '../../data/company.ts';
import type { Store } from '../../data/store.ts';
import { type ClientDoc, collectionOf } from '../../db/index.ts';

export interface PriceFor {
  idPauta: number | null;
  /** The client whose pauta it is; null when the pauta was picked by hand. */
  client: { id: string; name: string } | null;
}

// Module-level: the choice holds while the representative moves between the list and a product.
export const priceFor = signal<PriceFor | null>(null);

function clientChoice(c: ClientDoc): PriceFor {
  return { idPauta: c.idPauta, client: { id: c.id, name: clientDisplayName(c) || `Cliente ${c.id}` } };
}

/** Sets the pauta on first use (or from ?cliente=) and lists the pautas the device knows. */
export function usePriceFor(s: Store, clienteId: string | undefined): number[] {
  const [pautas, setPautas] = useState<number[]>([]);
  useEffect(() => {
    let live = true;
    void (async () => {
      const clientes = collectionOf(s.db, 'clientes');
      // Every product carries a price on every pauta of the tenant: one product lists them.
      const product = await collectionOf(s.db, 'produtos').findOne().exec();
      const ids = (product?.prices ?? []).map((p) => p.idPauta).sort((a, b) => a - b);
      if (!live) return;
      setPautas(ids);
      if (clienteId) {
        const c = await clientes.findOne(clienteId).exec();
        if (live && c) priceFor.value = clientChoice(c.toJSON() as ClientDoc);
        return;
      }
      if (priceFor.peek()) return;
      const first = await clientes.findOne({ selector: {}, sort: [{ busca: 'asc' }] }).exec();
      if (!live || priceFor.peek()) return;
      priceFor.value = first ? clientChoice(first.toJSON() as ClientDoc) : { idPauta: ids[0] ?? null, client: null };
    })();
    return () => {
      live = false;
    };
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
          priceFor.value = { idPauta: v === '' ? null : Number(v), client: null };
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
