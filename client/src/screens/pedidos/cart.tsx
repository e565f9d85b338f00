// The cart: a new order (/pedidos/novo?cliente=<id>) or the correction of a refused one
// (/pedidos/<id>/corrigir). It works the same online and offline: "Enviar pedido" only queues
// the order in the device's outbox, and the replication pushes it when there is a connection.
// Its state is useCart() (use-cart.ts); the two searches are client-picker.tsx and
// product-picker.tsx.
import { type LineCeiling, toErpText } from '@campo/shared';
import { usePautaName } from '../../data/company.ts';
import { formatDocument, formatMoney, formatPercent } from '../../kit/order-format.ts';
import { StockWarning, stockText } from '../../kit/stock.tsx';
import { ClientPicker } from './client-picker.tsx';
import { PaymentTermPicker } from './payment-term.tsx';
import { ProductPicker } from './product-picker.tsx';
import { ReasonList } from './reasons.tsx';
import { RepeatNote } from './repeat.tsx';
import { useCart } from './use-cart.ts';

/** Where a line's ceiling comes from, in the words a representative uses. */
export function ceilingSourceText(c: LineCeiling): string {
  switch (c.source) {
    case 'rule':
      return `regra "${c.rule?.descricao ?? ''}"`;
    case 'category':
      return 'seu teto para a categoria do produto';
    case 'representative':
      return 'seu teto padrão';
    case 'default':
      return 'teto padrão da empresa';
  }
}

export function CartScreen(props: { fixId?: string }) {
  const cart = useCart(props.fixId);
  const pautaName = usePautaName();
  const { fixing, client, idPauta, blocked, lines, previews, totals, refusedReasons, address, terms, term, errors } =
    cart;

  if (props.fixId && fixing === undefined) return <p aria-busy="true">Carregando o pedido…</p>;
  // Once resent, the order is queued again: the navigation to it is on its way, not an error.
  if (props.fixId && !cart.resent && fixing?.state !== 'refused') {
    return (
      <section>
        <h1>Corrigir pedido</h1>
        <p>Só um pedido recusado pelo servidor pode ser corrigido, e este não está nessa situação.</p>
        <a href="/pedidos">Voltar aos pedidos</a>
      </section>
    );
  }

  const inCart = new Set(lines.map((l) => l.idProduto));

  return (
    <section class="cart">
      <h1>{props.fixId ? 'Corrigir pedido' : 'Novo pedido'}</h1>
      <RepeatNote left={cart.repeatLeft} />
      {refusedReasons.length ? (
        <article class="refusal" aria-labelledby="cart-refusal-title">
          <h2 id="cart-refusal-title">O servidor recusou este pedido</h2>
          <ReasonList reasons={refusedReasons} />
          <p>Corrija e reenvie: o pedido segue com o mesmo número de envio.</p>
        </article>
      ) : null}
      <form onSubmit={cart.send} noValidate>
        {client ? (
          <section aria-labelledby="cart-client-title">
            <h2 id="cart-client-title">Cliente</h2>
            <article class="chosen-client">
              <strong>{client.tradeName || client.name}</strong>
              <small>
                {[client.name, formatDocument(client.document), client.city && `${client.city}/${client.uf ?? ''}`]
                  .filter(Boolean)
                  .join(' · ')}
              </small>
              {idPauta !== null ? <small>{pautaName(idPauta)}</small> : null}
              {blocked ? (
                <p class="line-error" role="alert">
                  {blocked}
                </p>
              ) : null}
              {props.fixId ? null : (
                <button type="button" class="outline secondary" onClick={cart.changeClient}>
                  Trocar cliente
                </button>
              )}
            </article>
          </section>
        ) : cart.clientLoading ? (
          <p aria-busy="true">Carregando o cliente…</p>
        ) : (
          <ClientPicker onPick={cart.pickClient} />
        )}

        <section aria-labelledby="cart-lines-title">
          <h2 id="cart-lines-title">Produtos</h2>
          {!cart.ceilingsKnown ? (
            <p class="notice">
              Seus tetos de desconto ainda não chegaram a este aparelho; o teto mostrado é o padrão (5%) até a
              sincronização.
            </p>
          ) : null}
          {client ? (
            <ProductPicker idPauta={idPauta} inCart={inCart} onAdd={cart.addProduct} />
          ) : (
            <p>Escolha o cliente para ver os preços da pauta dele.</p>
          )}
          {previews.length === 0 ? <p>Nenhum produto no pedido.</p> : null}
          <ol class="cart-lines">
            {previews.map((l, i) => {
              const name = l.product?.description ?? `Produto ${l.input.idProduto}`;
              const key = `${l.input.idProduto}`;
              const errorId = `linha-${key}-erro`;
              // The server's word on this line stands until the line changes: a rule deleted on the
              // server may still be on this device, so the local check alone could pass it. Once the
              // discount changes, the local check (same engine) speaks instead.
              const serverReasons = refusedReasons.filter(
                (r) =>
                  r.idProduto === l.input.idProduto &&
                  (r.code !== 'DISCOUNT_ABOVE_CEILING' || (r.descontoPercent === l.discount && !l.aboveCeiling)),
              );
              return (
                <li key={key}>
                  <article aria-labelledby={`linha-${key}-titulo`} class={l.error ? 'has-error' : undefined}>
                    <h3 id={`linha-${key}-titulo`}>{name}</h3>
                    <p class="line-facts">
                      {l.product?.code ? <span>Cód. {l.product.code}</span> : null}
                      {l.listPrice !== null ? (
                        <span>
                          Preço de tabela {formatMoney(l.listPrice)}
                          {l.product?.unit ? ` / ${l.product.unit}` : ''}
                        </span>
                      ) : null}
                      {l.ceiling ? (
                        <span>
                          Teto {formatPercent(l.ceiling.ceilingPercent)} ({ceilingSourceText(l.ceiling)})
                        </span>
                      ) : null}
                      {stockText(l.product?.stock, l.product?.unit) ? (
                        <span>{stockText(l.product?.stock, l.product?.unit)}</span>
                      ) : null}
                    </p>
                    {l.ceiling?.prefillRule ? (
                      <p class="line-rule">
                        {l.ceiling.prefillRule.promocao ? 'Promoção' : 'Cond. especial'}: "
                        {l.ceiling.prefillRule.descricao}" sugere {formatPercent(l.ceiling.prefillPercent)}
                      </p>
                    ) : null}
                    <div class="line-inputs">
                      <label>
                        Quantidade
                        <input
                          inputMode="decimal"
                          value={l.input.quantidade}
                          onInput={(e) => cart.updateLine(i, { quantidade: e.currentTarget.value })}
                          aria-invalid={l.error && l.quantity === null ? 'true' : undefined}
                          aria-describedby={l.error ? errorId : undefined}
                        />
                      </label>
                      <label>
                        Desconto (%)
                        <input
                          inputMode="decimal"
                          value={l.input.desconto}
                          onInput={(e) => cart.updateLine(i, { desconto: e.currentTarget.value })}
                          aria-invalid={l.error && l.quantity !== null ? 'true' : undefined}
                          aria-describedby={l.error ? errorId : undefined}
                        />
                      </label>
                    </div>
                    {l.amounts ? (
                      <p class="line-amounts">
                        Unitário {formatMoney(l.amounts.unitPrice)} · Total da linha{' '}
                        <strong>{formatMoney(l.amounts.total)}</strong>
                      </p>
                    ) : null}
                    <StockWarning stock={l.product?.stock} quantity={l.quantity} />
                    {l.error ? (
                      <p id={errorId} class="line-error">
                        {l.error}
                      </p>
                    ) : null}
                    {serverReasons.map((r) => (
                      <p key={r.message} class="line-error">
                        {r.message}
                      </p>
                    ))}
                    <button
                      type="button"
                      class="outline secondary"
                      aria-label={`Remover ${name}`}
                      onClick={() => cart.removeLine(i)}
                    >
                      Remover
                    </button>
                  </article>
                </li>
              );
            })}
          </ol>
        </section>

        {client ? (
          <section aria-labelledby="cart-delivery-title">
            <h2 id="cart-delivery-title">Entrega</h2>
            <label>
              Endereço de entrega
              <textarea rows={2} value={address} onInput={(e) => cart.setEndEntrega(e.currentTarget.value)} />
              <ErpText typed={address} />
            </label>
            <label>
              Observação
              <textarea rows={2} value={cart.observacao} onInput={(e) => cart.setObservacao(e.currentTarget.value)} />
              <ErpText typed={cart.observacao} />
            </label>
          </section>
        ) : null}

        {client ? (
          <PaymentTermPicker
            allowed={terms}
            chosen={term}
            defaultId={client.paymentTermId ?? null}
            restricted={!!client.paymentTermIds}
            onChange={cart.setIdCondicao}
          />
        ) : null}

        <section aria-labelledby="cart-totals-title" class="totals">
          <h2 id="cart-totals-title">Totais</h2>
          <dl>
            <dt>Bruto</dt>
            <dd>{formatMoney(totals.gross)}</dd>
            <dt>Desconto</dt>
            <dd>{formatMoney(totals.discount)}</dd>
            <dt>Total</dt>
            <dd>
              <strong>{formatMoney(totals.total)}</strong>
            </dd>
          </dl>
          <p>
            <small>
              Prévia calculada neste aparelho. O servidor confere preços e tetos quando o pedido chega e recusa o que
              não valer mais.
            </small>
          </p>
        </section>

        {errors.length ? (
          <div class="form-errors" role="alert" tabIndex={-1} ref={cart.errorsRef}>
            <p>
              <strong>Não foi possível enviar:</strong>
            </p>
            <ul>
              {errors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div class="cart-summary">
          <p role="status" aria-label="Resumo do pedido">
            {previews.length === 1 ? '1 produto' : `${previews.length} produtos`}
            <span class="cart-summary-total">{formatMoney(totals.total)}</span>
          </p>
          <button type="submit" aria-busy={cart.sending ? 'true' : undefined} disabled={cart.sending}>
            {props.fixId ? 'Reenviar pedido' : 'Enviar pedido'}
          </button>
        </div>
        <p>
          <small>Sem sinal, o pedido fica na fila deste aparelho e segue sozinho quando houver conexão.</small>
        </p>
      </form>
    </section>
  );
}

/**
 * The address and the note go to the ERP, whose LATIN1 tables cannot hold every character: the
 * rep sees what the ERP will receive (an emoji dropped, "—" as "-", "€" as "EUR") before sending.
 */
function ErpText({ typed }: { typed: string }) {
  const erp = toErpText(typed);
  if (erp === typed.replace(/\s+/g, ' ').trim()) return null;
  return <small class="erp-text">O ERP receberá: «{erp}»</small>;
}
