// The catalog list. A tenant may have tens of thousands of products, so every read is an
// indexed RxDB query with a limit: a page of 50 sorted on `busca`, and the group list found
// by skipping along the (grupoCodigo, busca) index one group at a time. A search by words is
// answered by an in-memory index instead (data/product-search.ts): no IndexedDB index holds substrings.
import { lineAmounts } from '@campo/shared';
import { searchTerms } from '@campo/shared/search';
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import type { MangoQuerySelector } from 'rxdb';
import { map } from 'rxjs';
import { useStoreObservable } from '../../data/hooks.ts';
import { searchProducts } from '../../data/product-search.ts';
import type { Store } from '../../data/store.ts';
import { collectionOf, type ProductDoc } from '../../db/index.ts';
import { formatMoney } from '../clientes/format.ts';
import { InitialSyncNote } from '../clientes/store-gate.tsx';
import { stockText } from '../pedidos/stock.tsx';
import { PautaPicker, priceFor, usePriceFor } from './pauta.tsx';
import { badgesOf, type Conditions, conditions$, priceOn } from './pricing.ts';

const PAGE = 50;
/** A safety stop for the group scan: far more groups than any ERP here has. */
const MAX_GROUPS = 500;

const query = signal('');
const group = signal<number | null>(null);
const shown = signal(PAGE);

interface Group {
  codigo: number;
  nome: string;
}

// Per store: the groups change only with the ERP's product tree.
const groupCache = new WeakMap<Store, { complete: boolean; groups: Promise<Group[]> }>();

async function scanGroups(s: Store): Promise<Group[]> {
  const produtos = collectionOf(s.db, 'produtos');
  const groups: Group[] = [];
  let last = -2;
  for (let i = 0; i < MAX_GROUPS; i++) {
    const next = await produtos
      .findOne({ selector: { grupoCodigo: { $gt: last } }, sort: [{ grupoCodigo: 'asc' }, { busca: 'asc' }] })
      .exec();
    if (!next) break;
    last = next.grupoCodigo;
    if (last >= 0) groups.push({ codigo: last, nome: next.grupoName ?? `Grupo ${last}` });
  }
  return groups.sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
}

function useGroups(s: Store): Group[] {
  const [groups, setGroups] = useState<Group[]>([]);
  // Rescanned when the first download ends: the groups of products still arriving are missing.
  const done = useStoreObservable(
    (st) => st.replication.syncState.collection$('produtos').pipe(map((c) => c?.initialDone ?? false)),
    false,
  );
  useEffect(() => {
    let cached = groupCache.get(s);
    if (!cached || (done && !cached.complete)) {
      cached = { complete: done, groups: scanGroups(s) };
      groupCache.set(s, cached);
    }
    let live = true;
    void cached.groups.then((g) => live && setGroups(g));
    return () => {
      live = false;
    };
  }, [s, done]);
  return groups;
}

export function ProductList(props: { store: Store; clienteId: string | undefined }) {
  const s = props.store;
  const pautas = usePriceFor(s, props.clienteId);
  const groups = useGroups(s);
  const conditions = useStoreObservable<Conditions | null>(conditions$, null);
  const q = query.value;
  const g = group.value;
  const limit = shown.value;
  const page = useStoreObservable<ProductDoc[] | null>(
    (st) => {
      if (searchTerms(q).length) return searchProducts(st.db, q, { grupo: g, limit: limit + 1 });
      // Without words the list is a range of an index: RxDB reads only the page.
      const and: MangoQuerySelector<ProductDoc>[] = [{ active: true }];
      if (g !== null) and.push({ grupoCodigo: g });
      return collectionOf(st.db, 'produtos')
        .find({
          selector: { $and: and },
          sort: g !== null ? [{ grupoCodigo: 'asc' }, { busca: 'asc' }] : [{ busca: 'asc' }],
          limit: limit + 1,
        })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as ProductDoc)));
    },
    null,
    [q, g, limit],
  );
  const idPauta = priceFor.value?.idPauta ?? null;
  const products = page?.slice(0, limit) ?? [];

  return (
    <>
      <InitialSyncNote collection="produtos" what="o catálogo" />
      <search class="list-search">
        <label>
          Buscar produto
          <input
            type="search"
            name="busca"
            value={q}
            placeholder="Código ou descrição"
            autocomplete="off"
            onInput={(e) => {
              query.value = e.currentTarget.value;
              shown.value = PAGE;
            }}
          />
        </label>
        {/* The products come first; the pauta and the group are one tap away. */}
        <details class="catalog-filters">
          <summary>
            Filtros: pauta {idPauta ?? '—'}
            {g !== null ? ` · ${groups.find((x) => x.codigo === g)?.nome ?? `grupo ${g}`}` : ' · todos os grupos'}
          </summary>
          <PautaPicker pautas={pautas} />
          <label>
            Grupo
            <select
              name="grupo"
              value={g === null ? '' : String(g)}
              onChange={(e) => {
                const v = e.currentTarget.value;
                group.value = v === '' ? null : Number(v);
                shown.value = PAGE;
              }}
            >
              <option value="">Todos os grupos</option>
              {groups.map((x) => (
                <option key={x.codigo} value={String(x.codigo)}>
                  {x.nome}
                </option>
              ))}
            </select>
          </label>
        </details>
      </search>
      {page === null ? (
        <p aria-busy="true">Carregando produtos…</p>
      ) : products.length === 0 ? (
        <p>{q || g !== null ? 'Nenhum produto encontrado com essa busca.' : 'O catálogo ainda está vazio.'}</p>
      ) : (
        <ul class="item-list product-list" aria-label="Produtos">
          {products.map((p) => (
            <ProductRow key={p.id} product={p} conditions={conditions} idPauta={idPauta} />
          ))}
        </ul>
      )}
      {(page?.length ?? 0) > limit && (
        <button type="button" class="secondary" onClick={() => (shown.value = limit + PAGE)}>
          Mostrar mais
        </button>
      )}
    </>
  );
}

const percentFmt = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
const formatPercentBr = (n: number) => `${percentFmt.format(n)}%`;

function ProductRow(props: { product: ProductDoc; conditions: Conditions | null; idPauta: number | null }) {
  const p = props.product;
  const price = priceOn(p, props.idPauta);
  const badges = props.conditions ? badgesOf(p, props.conditions, props.idPauta) : null;
  return (
    <li>
      <a href={`/catalogo/${encodeURIComponent(p.id)}`}>
        <strong>{p.description ?? `Produto ${p.id}`}</strong>
        <span class="muted">
          {p.code ? `Cód. ${p.code}` : ''}
          {p.grupoName ? ` · ${p.grupoName}` : ''}
          {p.unit ? ` · ${p.unit}` : ''}
          {stockText(p.stock, p.unit) ? ` · ${stockText(p.stock, p.unit)}` : ''}
        </span>
        <span class="badges">
          {badges?.promo && <span class="badge badge-promo">Promoção</span>}
          {badges?.special && <span class="badge badge-special">Cond. especial</span>}
        </span>
      </a>
      {price !== null && badges?.promo ? (
        // What the client pays with the promotion (the discount a new cart line starts with).
        <span class="price price-promo">
          <s>{formatMoney(price)}</s>
          <span>
            {formatMoney(lineAmounts(price, 1, badges.promo.percent).unitPrice)}
            <small> com {formatPercentBr(badges.promo.percent)}</small>
          </span>
        </span>
      ) : (
        <span class="price">{price === null ? 'Sem preço' : formatMoney(price)}</span>
      )}
    </li>
  );
}
