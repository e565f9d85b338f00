// The catalog list. A tenant may have tens of thousands of products, so every read is an
// indexed RxDB query with a limit: a page of 50 sorted on `busca`, and the group list found
// by skipping along the (grupoCodigo, busca) index one group at a time. A search by words is
// answered by an in-memory index instead (search-index.ts): no IndexedDB index holds substrings.
import { lineAmounts } from '@campo/shared';
import { searchTerms } from '@campo/shared/search';
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import type { MangoQuerySelector } from 'rxdb';
import { asyncScheduler, from, map, Observable, switchMap, throttleTime } from 'rxjs';
import { useStoreObservable } from '../../data/hooks.ts';
import type { Store } from '../../data/store.ts';
import { collectionOf, type ProductDoc } from '../../db/index.ts';
import { formatMoney } from '../clientes/format.ts';
import { InitialSyncNote } from '../clientes/store-gate.tsx';
import { stockText } from '../pedidos/stock.tsx';
import { PautaPicker, priceFor, usePriceFor } from './pauta.tsx';
import { badgesOf, type Conditions, conditions$, priceOn } from './pricing.ts';
import { createProductSearchIndex, type ProductSearchIndex } from './search-index.ts';

const PAGE = 50;
/** A search re-runs at most this often while products are being written. */
const SEARCH_EVERY_MS = 200;
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

// Per store, built at the first search and kept current by the collection's changes.
const searchIndexes = new WeakMap<Store, ProductSearchIndex>();

/**
 * The products whose key holds the words, from the in-memory index (search-index.ts): re-run as
 * the index changes, at most every SEARCH_EVERY_MS while the first download writes page after
 * page, and only the page shown is read from the store. A run is never cut short by the next
 * change (its read waits behind the download's writes, which would starve the list): changes
 * that come meanwhile make one more run after it.
 */
function searched(s: Store, q: string, g: number | null, limit: number): Observable<ProductDoc[]> {
  let index = searchIndexes.get(s);
  if (!index) {
    index = createProductSearchIndex(collectionOf(s.db, 'produtos'));
    searchIndexes.set(s, index);
  }
  const idx = index;
  return new Observable<ProductDoc[]>((subscriber) => {
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const ids = idx.search(q, g, limit);
          const docs = await collectionOf(s.db, 'produtos').findByIds(ids).exec();
          if (subscriber.closed) return;
          subscriber.next(
            ids.flatMap((id) => {
              const d = docs.get(id);
              return d ? [d.toJSON() as ProductDoc] : [];
            }),
          );
        } while (again);
      } catch (err) {
        subscriber.error(err);
      } finally {
        running = false;
      }
    };
    const sub = from(idx.ready)
      .pipe(
        switchMap(() => idx.version$),
        throttleTime(SEARCH_EVERY_MS, asyncScheduler, { leading: true, trailing: true }),
      )
      .subscribe({ next: () => void run(), error: (err) => subscriber.error(err) });
    return () => sub.unsubscribe();
  });
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
      if (searchTerms(q).length) return searched(st, q, g, limit + 1);
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
