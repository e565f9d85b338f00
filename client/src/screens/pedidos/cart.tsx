// The cart: a new order (/pedidos/novo?cliente=<id>) or the correction of a refused one
// (/pedidos/<id>/corrigir). It works the same online and offline: "Enviar pedido" only queues
// the order in the device's outbox, and the replication pushes it when there is a connection.
// Its state is useCart() (use-cart.ts); a line is cart-line.tsx, the two searches are
// client-picker.tsx and product-picker.tsx.

import { type ErpEncoding, erpChangesText, toErpText } from '@campo/shared';
import { clientDisplayName, plural } from '@campo/shared/format';
import { useErpEncoding, usePautaName } from '../../data/company.ts';
import { DocumentText } from '../../kit/document-text.tsx';
import { formatMoney } from '../../kit/order-format.ts';
import { CartLine } from './cart-line.tsx';
import { type CartFlex, flexRefusal } from './cart-model.ts';
import { CartSuggestion } from './cart-suggestion.tsx';
import { ClientPicker } from './client-picker.tsx';
import { PaymentTermPicker } from './payment-term.tsx';
import { ProductPicker } from './product-picker.tsx';
import { ReasonList } from './reasons.tsx';
import { RepeatNote } from './repeat.tsx';
import { useCart } from './use-cart.ts';

export function CartScreen(props: { fixId?: string }) {
  const cart = useCart(props.fixId);
  const pautaName = usePautaName();
  const erpEncoding = useErpEncoding();
  const {
    fixing,
    client,
    idPauta,
    blocked,
    lines,
    previews,
    totals,
    flex,
    credit,
    refusedReasons,
    address,
    terms,
    term,
    errors,
  } = cart;

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
              <strong>{clientDisplayName(client)}</strong>
              <small>
                {client.name && client.name !== clientDisplayName(client) ? `${client.name} · ` : ''}
                <DocumentText value={client.document} />
                {client.city ? ` · ${client.city}/${client.uf ?? ''}` : ''}
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
          {client && !props.fixId ? (
            <CartSuggestion client={client} ctx={cart.ctx} inCart={inCart} onAdd={cart.addLines} />
          ) : null}
          {client ? (
            <ProductPicker idPauta={idPauta} inCart={inCart} onAdd={cart.addProduct} />
          ) : (
            <p>Escolha o cliente para ver os preços da pauta dele.</p>
          )}
          {previews.length === 0 ? <p>Nenhum produto no pedido.</p> : null}
          <ol class="cart-lines">
            {previews.map((l, i) => (
              <li key={`${l.input.idProduto}`}>
                <CartLine
                  line={l}
                  refusedReasons={refusedReasons}
                  onChange={(patch) => cart.updateLine(i, patch)}
                  onRemove={() => cart.removeLine(i)}
                />
              </li>
            ))}
          </ol>
        </section>

        {client ? (
          <section aria-labelledby="cart-delivery-title">
            <h2 id="cart-delivery-title">Entrega</h2>
            <label>
              Endereço de entrega
              <textarea rows={2} value={address} onInput={(e) => cart.setEndEntrega(e.currentTarget.value)} />
              <ErpText typed={address} encoding={erpEncoding} />
            </label>
            <label>
              Observação
              <textarea rows={2} value={cart.observacao} onInput={(e) => cart.setObservacao(e.currentTarget.value)} />
              <ErpText typed={cart.observacao} encoding={erpEncoding} />
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
          {credit ? (
            <div class="cart-credit">
              <p>{credit.line}</p>
              {credit.warning ? (
                <p class="notice" role="status">
                  {credit.warning}
                </p>
              ) : null}
            </div>
          ) : null}
          {flex ? <FlexSummary flex={flex} /> : null}
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
            {plural(previews.length, 'produto', 'produtos')}
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
 * The address and the note go to the ERP, whose database may not hold every character (LATIN1
 * and WIN1252 do not; UTF8 does): the rep sees what the ERP will receive (an emoji dropped, "—"
 * as "-", "€" as "EUR" in LATIN1) before sending, and only when it differs from what was typed.
 */
function ErpText({ typed, encoding }: { typed: string; encoding: ErpEncoding }) {
  if (!erpChangesText(typed, encoding)) return null;
  return <small class="erp-text">O ERP receberá: «{toErpText(typed, undefined, encoding)}»</small>;
}

/** The order's flex: what it uses and earns, and the balance before and after it. */
function FlexSummary({ flex }: { flex: CartFlex }) {
  const refusal = flexRefusal(flex);
  return (
    <section class="cart-flex" aria-labelledby="cart-flex-title">
      <h3 id="cart-flex-title">Saldo flex</h3>
      <dl>
        <dt>Este pedido usa</dt>
        <dd>{formatMoney(flex.spent)}</dd>
        <dt>Gera na aprovação</dt>
        <dd>{formatMoney(flex.earned)}</dd>
        <dt>Saldo</dt>
        <dd>{flex.balance === null ? 'ainda não sincronizado' : formatMoney(flex.balance)}</dd>
        {flex.reserved > 0 ? (
          <>
            <dt>Reservado por pedidos na fila</dt>
            <dd>{formatMoney(flex.reserved)}</dd>
          </>
        ) : null}
        {flex.after !== null ? (
          <>
            <dt>Saldo depois deste pedido</dt>
            <dd>{formatMoney(flex.after)}</dd>
          </>
        ) : null}
      </dl>
      {refusal ? (
        <p class="line-error" role="alert">
          {refusal}
        </p>
      ) : null}
      {flex.balance === null && flex.spent > 0 ? (
        <p class="notice">
          Seu saldo flex ainda não chegou a este aparelho: o servidor confere o saldo quando o pedido chegar e recusa as
          linhas acima do teto que ele não cobrir.
        </p>
      ) : null}
    </section>
  );
}
