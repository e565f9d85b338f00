// The catalog list. A tenant may have tens of thousands of products: the list, with or without
// words, and its groups come from the in-memory product index (data/product-search.ts), which
// holds the search key of each; only the page shown is read from the store. The products have
// no IndexedDB index for this order (store version 3: the indexes slowed the first download).
import { lineAmounts } from '@campo/shared';
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { map } from 'rxjs';
import { usePautaName } from '../../data/company.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { productIndexOf, searchProducts } from '../../data/product-search.ts';
import type { Store } from '../../data/store.ts';
import { collectionOf, type ProductDoc } from '../../db/index.ts';
import { formatMoney } from '../../kit/field-format.ts';
import { ProductPhoto } from '../../kit/product-photo.tsx';
import { stockText } from '../../kit/stock.tsx';
import { InitialSyncNote } from '../../kit/store-gate.tsx';
import { PautaPicker, priceFor, usePriceFor } from './pauta.tsx';
import { badgesOf, type Conditions, conditions$, priceOn } from './pricing.ts';

const PAGE = 50;

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
  const index = productIndexOf(s.db);
  await index.ready;
  const firsts = index.groups();
  const docs = await collectionOf(s.db, 'produtos')
    .findByIds([...firsts.values()])
    .exec();
  const groups = [...firsts].map(([codigo, id]) => ({
    codigo,
    nome: docs.get(id)?.grupoName ?? `Grupo ${codigo}`,
  }));
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
    (st) => searchProducts(st.db, q, { grupo: g, limit: limit + 1 }),
    null,
    [q, g, limit],
  );
  const idPauta = priceFor.value?.idPauta ?? null;
  const pautaName = usePautaName();
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
            Filtros: {idPauta === null ? 'sem pauta' : pautaName(idPauta)}
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
  const name = p.description ?? `Produto ${p.id}`;
  return (
    <li>
      <ProductPhoto product={p} size="thumb" name={name} decorative />
      <a href={`/catalogo/${encodeURIComponent(p.id)}`}>
        <strong>{name}</strong>
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
