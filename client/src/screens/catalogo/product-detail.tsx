// One product's commercial conditions: its price on every pauta, the rules that reach it
// (percent, pauta, vigência) and the representative's ceiling, computed by the shared engine.
import { describeCeiling } from '@campo/shared/discount-engine';
import { map } from 'rxjs';
import { usePautaName } from '../../data/company.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import type { Store } from '../../data/store.ts';
import { collectionOf, type ProductDoc } from '../../db/index.ts';
import { formatDate, formatMoney, formatPercent } from '../../kit/field-format.ts';
import { ProductPhoto } from '../../kit/product-photo.tsx';
import { stockText } from '../../kit/stock.tsx';
import { PautaPicker, priceFor, usePriceFor } from './pauta.tsx';
import { type Conditions, ceilingOf, conditions$, rulesReaching } from './pricing.ts';

const OPEN_END = '9999-12-31';

function vigencia(inicio: string, fim: string, today: string): string {
  const from = inicio > today ? `a partir de ${formatDate(inicio)}` : `desde ${formatDate(inicio)}`;
  return fim === OPEN_END ? `${from}, sem data de fim` : `${from} até ${formatDate(fim)}`;
}

export function ProductDetail(props: { store: Store; id: string }) {
  const pautaName = usePautaName();
  const pautas = usePriceFor(props.store, undefined);
  const product = useStoreObservable<ProductDoc | null | undefined>(
    (s) =>
      collectionOf(s.db, 'produtos')
        .findOne(props.id)
        .$.pipe(map((d) => (d ? (d.toJSON() as ProductDoc) : null))),
    undefined,
    [props.id],
  );
  const conditions = useStoreObservable<Conditions | null>(conditions$, null);

  if (product === undefined) return <p aria-busy="true">Carregando produto…</p>;
  if (product === null) {
    return (
      <>
        <a href="/catalogo">← Catálogo</a>
        <h1>Produto não encontrado</h1>
        <p>Este produto não está no catálogo deste aparelho.</p>
      </>
    );
  }
  const idPauta = priceFor.value?.idPauta ?? null;
  const ceiling = conditions ? ceilingOf(product, conditions, idPauta) : null;
  const rules = conditions ? rulesReaching(product, conditions) : [];
  const category = product.category ?? '';
  const baseByCategory = conditions?.ceilings.byCategory[category];

  return (
    <article class="product-detail">
      <a href="/catalogo">← Catálogo</a>
      <h1>{product.description ?? `Produto ${product.id}`}</h1>
      <ProductPhoto product={product} size="full" name={product.description ?? `Produto ${product.id}`} />
      {!product.active && <p class="notice">Produto inativo no ERP: não entra em pedidos novos.</p>}
      <dl class="facts">
        <dt>Código</dt>
        <dd>{product.code ?? '—'}</dd>
        <dt>Unidade</dt>
        <dd>{product.unit ?? '—'}</dd>
        <dt>Grupo</dt>
        <dd>{product.grupoName ?? '—'}</dd>
        <dt>Subgrupo</dt>
        <dd>{product.subgrupoName ?? '—'}</dd>
        <dt>Categoria</dt>
        <dd>{product.category ?? '—'}</dd>
        {product.stock != null ? (
          <>
            <dt>Estoque</dt>
            <dd>{stockText(product.stock, product.unit)?.replace(/^Estoque /, '')}</dd>
          </>
        ) : null}
      </dl>

      <PautaPicker pautas={pautas} />

      <section aria-labelledby="teto-titulo">
        <h2 id="teto-titulo">Seu desconto</h2>
        {ceiling && conditions ? (
          <ul>
            <li>
              Teto para a categoria {category || 'sem categoria'}:{' '}
              <strong>{formatPercent(baseByCategory ?? ceiling.basePercent)}</strong>
              {baseByCategory === undefined &&
                (ceiling.baseSource === 'representative' ? ' (seu teto padrão)' : ' (teto padrão da empresa)')}
            </li>
            <li>
              Hoje, {idPauta === null ? 'sem pauta' : `na pauta ${pautaName(idPauta)}`}: {describeCeiling(ceiling)}.
            </li>
            {ceiling.prefillRule && (
              <li>
                Um item novo no pedido já começa com {formatPercent(ceiling.prefillPercent)} de desconto (regra "
                {ceiling.prefillRule.descricao}").
              </li>
            )}
          </ul>
        ) : (
          <p aria-busy="true">Carregando regras…</p>
        )}
      </section>

      <section aria-labelledby="regras-titulo">
        <h2 id="regras-titulo">Regras que alcançam este produto</h2>
        {rules.length === 0 ? (
          <p>Nenhuma regra de desconto em vigor ou programada para este produto.</p>
        ) : (
          <ul class="item-list">
            {rules.map((r) => (
              <li key={r.id}>
                <div>
                  <strong>{r.descricao}</strong>{' '}
                  {r.promocao ? (
                    <span class="badge badge-promo">Promoção</span>
                  ) : (
                    <span class="badge badge-special">Cond. especial</span>
                  )}
                  <br />
                  <span class="muted">
                    {r.idPauta === null ? 'Todas as pautas' : pautaName(r.idPauta)} ·{' '}
                    {vigencia(r.vigenciaInicio, r.vigenciaFim, conditions?.date ?? '')}
                  </span>
                </div>
                <strong>{formatPercent(r.percent)}</strong>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="precos-titulo">
        <h2 id="precos-titulo">Preços por pauta</h2>
        {product.prices.length === 0 ? (
          <p>Sem preço em nenhuma pauta.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Pauta</th>
                <th scope="col">Preço</th>
              </tr>
            </thead>
            <tbody>
              {product.prices.map((x) => (
                <tr key={x.idPauta} aria-current={x.idPauta === idPauta ? 'true' : undefined}>
                  <td>
                    {pautaName(x.idPauta)}
                    {x.idPauta === idPauta ? ' (escolhida)' : ''}
                  </td>
                  <td>{formatMoney(x.price)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}
