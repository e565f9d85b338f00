import type { Order, OrderDetail } from '@campo/shared';
import { plural } from '@campo/shared/format';
import { useSignal } from '@preact/signals';
import { api, errorMessage } from '../../api.ts';
import { AddressText } from '../../kit/document-text.tsx';
import { brl, dateTime, FINANCIAL_LABEL, num, ORDER_STATUS_LABEL, pct } from '../../kit/format.ts';
import { InvoicesPanel } from '../../kit/invoices.tsx';
import { useRepName } from '../../kit/rep-name.ts';
import { useApi } from '../../kit/use-api.ts';
import { beyondSentence, creditAfterOrder, NO_LIMIT, NOT_CHECKED, signedBrl } from './credit.ts';
import { lineFlexNote, orderFlexTotals } from './flex.ts';
import { refreshPendingCount } from './pending-badge.tsx';
import { OpenTitles } from './titles.tsx';

const CHIP = { ok: 'ok', overdue: 'warn', blocked: 'bad' } as const;

function ClientPanel(props: { idCliente: number }) {
  const { data: c, error } = useApi('/clients/{id}', { params: { path: { id: props.idCliente } } });
  if (error) return <p class="error">Situação do cliente indisponível: {error}</p>;
  if (!c) return <p aria-busy="true">Carregando o cliente…</p>;
  // The limit and what is available are the credit block's, as the order was judged by them.
  return (
    <article aria-labelledby="cliente-titulo">
      <h2 id="cliente-titulo">{c.name}</h2>
      <p>
        Situação financeira:{' '}
        <span class={`mg-chip ${CHIP[c.financialStatus]}`}>{FINANCIAL_LABEL[c.financialStatus]}</span>
      </p>
      <dl class="mg-facts">
        <dt>Títulos em aberto</dt>
        <dd>{brl(c.openAmount)}</dd>
        <dt>Vencido</dt>
        <dd>
          {brl(c.overdueAmount)}
          {c.maxDaysOverdue > 0 && ` (há ${plural(c.maxDaysOverdue, 'dia', 'dias')})`}
        </dd>
      </dl>
      <OpenTitles idCliente={props.idCliente} />
    </article>
  );
}

/** The client's credit as the server judged this order when it arrived, and after it. */
function CreditPanel(props: { order: Order }) {
  const figures = creditAfterOrder(props.order.credit, props.order.valorTotal);
  return (
    <section class="mg-credit" aria-labelledby="credito-titulo">
      <h2 id="credito-titulo">Crédito do cliente</h2>
      {figures === null && <p>{NO_LIMIT}</p>}
      {figures === undefined && <p>{NOT_CHECKED}</p>}
      {figures && (
        <>
          {figures.beyond !== null && (
            <p class="error">
              <strong>{beyondSentence(figures.beyond)}</strong>
            </p>
          )}
          <dl class="mg-facts">
            <dt>Limite</dt>
            <dd>{brl(figures.limit)}</dd>
            <dt>Em aberto (títulos + pedidos)</dt>
            <dd>{brl(figures.open)}</dd>
            <dt>Este pedido</dt>
            <dd>{brl(figures.thisOrder)}</dd>
            <dt>Disponível após este pedido</dt>
            <dd class={figures.availableAfter < 0 ? 'error' : undefined}>
              <strong>{signedBrl(figures.availableAfter)}</strong>
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}

function Lines(props: { order: Order }) {
  // The flex column only for an order that used or earned some: flex off changes nothing.
  const withFlex = orderFlexTotals(props.order) !== null;
  return (
    <div class="mg-scroll review-lines">
      <table>
        <caption class="mg-muted">Itens, descontos e o teto de cada linha</caption>
        <thead>
          <tr>
            <th scope="col">Produto</th>
            <th scope="col" class="mg-num">
              Qtd.
            </th>
            <th scope="col" class="mg-num">
              Preço tabela
            </th>
            <th scope="col" class="mg-num">
              Desconto
            </th>
            <th scope="col" class="mg-num">
              Teto
            </th>
            <th scope="col">Permitido por</th>
            {withFlex ? <th scope="col">Flex</th> : null}
            <th scope="col" class="mg-num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {props.order.itens.map((l) => {
            const above = l.tetoPercent !== null && l.descontoPercent > l.tetoPercent;
            return (
              <tr key={l.seq}>
                <td>
                  {l.descricao}
                  <br />
                  <small class="mg-muted">{l.codProduto}</small>
                </td>
                <td class="mg-num">{num(l.quantidade)}</td>
                <td class="mg-num">{brl(l.precoTabela)}</td>
                <td class={above ? 'mg-num error' : 'mg-num'}>{pct(l.descontoPercent)}</td>
                <td class="mg-num">{pct(l.tetoPercent)}</td>
                <td>
                  {l.descontoPercent === 0
                    ? 'Sem desconto'
                    : l.descontoPercent < 0
                      ? 'Acima da tabela'
                      : l.flexUsado
                        ? 'Saldo flex do representante'
                        : l.regra
                          ? `Regra: ${l.regra.descricao}`
                          : 'Alçada do representante'}
                </td>
                {withFlex ? <td>{lineFlexNote(l) ?? '—'}</td> : null}
                <td class="mg-num">{brl(l.valorTotal)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function OrderReview(props: { id: number }) {
  const { data: fetched, error } = useApi('/orders/{id}', { params: { path: { id: props.id } } });
  const repName = useRepName();
  const decided = useSignal<Order | null>(null);
  const busy = useSignal<'approve' | 'reject' | null>(null);
  const rejecting = useSignal(false);
  const motivo = useSignal('');
  const actionError = useSignal<string | null>(null);
  const order = decided.value ?? fetched;
  const flexTotals = order ? orderFlexTotals(order) : null;

  const decide = async (kind: 'approve' | 'reject') => {
    if (kind === 'reject' && motivo.value.trim().length < 3) {
      actionError.value = 'Escreva o motivo da rejeição (pelo menos 3 caracteres).';
      return;
    }
    busy.value = kind;
    actionError.value = null;
    try {
      decided.value =
        (await kind) === 'approve'
          ? await api.POST('/orders/{id}/approve', { params: { path: { id: props.id } } })
          : await api.POST('/orders/{id}/reject', {
              params: { path: { id: props.id } },
              body: { motivo: motivo.value.trim() },
            });
      rejecting.value = false;
      void refreshPendingCount();
    } catch (err) {
      // The reason typed stays in the field: nothing is lost on an error.
      actionError.value = errorMessage(err);
    } finally {
      busy.value = null;
    }
  };

  return (
    <section aria-labelledby="pedido-titulo">
      <p>
        <a href="/aprovacoes">← Voltar à fila</a>
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!order && !error && <p aria-busy="true">Carregando o pedido…</p>}
      {order && (
        <>
          <h1 id="pedido-titulo">Pedido nº {order.numPedSar}</h1>
          <p>
            <span class="mg-chip" data-status={order.status}>
              {ORDER_STATUS_LABEL[order.status]}
            </span>{' '}
            <span class="mg-muted">
              {repName(order.codVendedor)} · enviado em {dateTime(order.criadoEm)}
            </span>
          </p>
          <ClientPanel idCliente={order.idCliente} />
          <CreditPanel order={order} />
          <Lines order={order} />
          {'invoices' in order && <InvoicesPanel order={order as OrderDetail} />}
          <dl class="mg-facts">
            <dt>Valor bruto</dt>
            <dd>{brl(order.valorBruto)}</dd>
            <dt>Descontos</dt>
            <dd>{brl(order.valorDesconto)}</dd>
            <dt>Total do pedido</dt>
            <dd>
              <strong>{brl(order.valorTotal)}</strong>
            </dd>
            {flexTotals && (
              <>
                <dt>Flex usado (além dos tetos)</dt>
                <dd>{brl(flexTotals.used)}</dd>
                <dt>Flex gerado (creditado na aprovação)</dt>
                <dd>{brl(flexTotals.earned)}</dd>
              </>
            )}
            {order.endEntrega && (
              <>
                <dt>Entrega</dt>
                <dd>
                  <AddressText text={order.endEntrega} />
                </dd>
              </>
            )}
            {order.condicaoPagamento && (
              <>
                <dt>Pagamento</dt>
                <dd>{order.condicaoPagamento.descricao}</dd>
              </>
            )}
            {order.observacao && (
              <>
                <dt>Observação</dt>
                <dd>{order.observacao}</dd>
              </>
            )}
          </dl>

          {order.status === 'pending_approval' ? (
            <div>
              {actionError.value && (
                <p role="alert" class="error">
                  {actionError.value}
                </p>
              )}
              {rejecting.value ? (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void decide('reject');
                  }}
                >
                  <label>
                    Motivo da rejeição
                    <textarea
                      name="motivo"
                      rows={3}
                      maxLength={500}
                      required
                      value={motivo.value}
                      onInput={(e) => {
                        motivo.value = e.currentTarget.value;
                      }}
                    />
                    <small>O representante verá este motivo.</small>
                  </label>
                  <div class="mg-actions">
                    <button type="submit" class="contrast" aria-busy={busy.value === 'reject' ? 'true' : undefined}>
                      Confirmar rejeição
                    </button>
                    <button type="button" class="secondary outline" onClick={() => (rejecting.value = false)}>
                      Cancelar
                    </button>
                  </div>
                </form>
              ) : (
                <div class="mg-actions">
                  <button
                    type="button"
                    onClick={() => void decide('approve')}
                    disabled={busy.value !== null}
                    aria-busy={busy.value === 'approve' ? 'true' : undefined}
                  >
                    Aprovar
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    disabled={busy.value !== null}
                    onClick={() => (rejecting.value = true)}
                  >
                    Rejeitar
                  </button>
                </div>
              )}
            </div>
          ) : (
            <p role="status" class={order.status === 'rejected' ? 'error' : 'mg-success'}>
              {order.status === 'rejected' ? 'Pedido rejeitado' : 'Pedido aprovado'}
              {order.decididoPor && ` por ${order.nomeDecididoPor ?? order.decididoPor}`}
              {order.decididoEm && ` em ${dateTime(order.decididoEm)}`}.
              {order.motivoRejeicao && ` Motivo: ${order.motivoRejeicao}`}
              {order.numPedidoErp != null && ` Pedido no ERP: ${order.numPedidoErp}.`}
            </p>
          )}
        </>
      )}
    </section>
  );
}
