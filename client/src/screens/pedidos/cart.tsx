// The cart: a new order (/pedidos/novo?cliente=<id>) or the correction of a refused one
// (/pedidos/<id>/corrigir). It works the same online and offline: "Enviar pedido" only queues
// the order in the device's outbox, and the replication pushes it when there is a connection.
import { type LineCeiling, type SyncOrderReason, toErpText } from '@campo/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useCompany, usePautaName } from '../../data/company.ts';
import { store } from '../../data/store.ts';
import type { ClientDoc, ProductDoc } from '../../db/schemas.ts';
import { formatDocument, formatMoney, formatPercent } from '../../kit/order-format.ts';
import { StockWarning, stockText } from '../../kit/stock.tsx';
import { currentUser } from '../../session/session.ts';
import {
  allowedTerms,
  type CartLineInput,
  cartTotals,
  chosenTerm,
  clientBlockReason,
  draftOf,
  linesOfDraft,
  newLine,
  previewLine,
  priceOn,
} from './cart-model.ts';
import { useCartContext, useClients, useOrderEntry, useProducts, useSearch } from './data.ts';
import { PaymentTermPicker } from './payment-term.tsx';
import { ReasonList } from './reasons.tsx';
import { erpRepeatItems, type RepeatItem, RepeatNote, useRepeat } from './repeat.tsx';

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

function ClientPicker(props: { onPick: (c: ClientDoc) => void }) {
  const [text, setText] = useState('');
  const found = useSearch('clientes', text);
  return (
    <section aria-labelledby="cart-client-title">
      <h2 id="cart-client-title">Cliente</h2>
      <label>
        Buscar cliente
        <input
          type="search"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          placeholder="Nome, CNPJ/CPF ou cidade"
          autocomplete="off"
        />
      </label>
      {text.trim() && found.length === 0 ? <p>Nenhum cliente da sua carteira encontrado neste aparelho.</p> : null}
      <ul class="pick-list">
        {found.map((c) => {
          const blocked = clientBlockReason(c);
          const reasonId = `cliente-${c.id}-motivo`;
          return (
            <li key={c.id}>
              <button
                type="button"
                class="outline"
                disabled={blocked !== null}
                aria-describedby={blocked ? reasonId : undefined}
                onClick={() => props.onPick(c)}
              >
                {c.tradeName || c.name}
                <small>
                  {[c.name !== c.tradeName ? c.name : null, formatDocument(c.document), c.city]
                    .filter(Boolean)
                    .join(' · ')}
                </small>
              </button>
              {blocked ? (
                <small id={reasonId} class="pick-reason">
                  {blocked}
                </small>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ProductPicker(props: { idPauta: number | null; inCart: ReadonlySet<number>; onAdd: (p: ProductDoc) => void }) {
  const [text, setText] = useState('');
  const found = useSearch('produtos', text);
  return (
    <div class="product-picker">
      <label>
        Buscar produto
        <input
          type="search"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          placeholder="Código ou descrição"
          autocomplete="off"
        />
      </label>
      {text.trim() && found.length === 0 ? <p>Nenhum produto encontrado neste aparelho.</p> : null}
      <ul class="pick-list">
        {found.map((p) => {
          const price = priceOn(p, props.idPauta);
          const why = !p.active
            ? 'Inativo no ERP.'
            : price === null
              ? 'Sem preço na pauta do cliente.'
              : props.inCart.has(Number(p.id))
                ? 'Já está no pedido.'
                : null;
          const reasonId = `produto-${p.id}-motivo`;
          return (
            <li key={p.id}>
              <button
                type="button"
                class="outline"
                disabled={why !== null}
                aria-describedby={why ? reasonId : undefined}
                aria-label={`Adicionar ${p.description ?? p.code ?? p.id}`}
                onClick={() => {
                  props.onAdd(p);
                  setText('');
                }}
              >
                {p.description}
                <small>
                  {[p.code, p.unit, price !== null ? formatMoney(price) : null].filter(Boolean).join(' · ')}
                </small>
              </button>
              {why ? (
                <small id={reasonId} class="pick-reason">
                  {why}
                </small>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

interface SavedCart {
  userId: number;
  clientId: string | null;
  lines: CartLineInput[];
  endEntrega: string | null;
  observacao: string;
  idCondicao: number | null;
}

/**
 * The new order being typed, kept in memory while the representative looks something up in
 * the catalog or a client's card and comes back. Not stored: a reload starts afresh, and a
 * cart never outlives the tab or reaches another user.
 */
let savedCart: SavedCart | null = null;

function resumableCart(userId: number | null, clienteParam: string | null): SavedCart | null {
  if (!savedCart || savedCart.userId !== userId) return null;
  // A link to start an order for another client is a new order.
  if (clienteParam && clienteParam !== savedCart.clientId) return null;
  return savedCart;
}

export function CartScreen(props: { fixId?: string }) {
  const { query, route } = useLocation();
  const outbox = store.value?.outbox ?? null;
  // Called for a new order too (hooks cannot be conditional): no document has the empty id.
  const fixEntry = useOrderEntry(props.fixId ?? '');
  const fixing = props.fixId ? fixEntry : null;
  const userId = currentUser.value?.id ?? null;
  // "Repetir pedido": a new cart from a past order of this device (its outbox id) or an ERP
  // order whose lines the device fetched (erp-<id>).
  const repeatId = props.fixId ? null : (query.repetir ?? null);
  const repeatEntry = useOrderEntry(repeatId ?? '');
  const resume = props.fixId || repeatId ? null : resumableCart(userId, query.cliente ?? null);
  const [clientId, setClientId] = useState<string | null>(resume?.clientId ?? query.cliente ?? null);
  const [lines, setLines] = useState<CartLineInput[]>(resume?.lines ?? []);
  const [endEntrega, setEndEntrega] = useState<string | null>(resume?.endEntrega ?? null);
  const [observacao, setObservacao] = useState(resume?.observacao ?? '');
  // The term picked by hand; null follows the client's default.
  const [idCondicao, setIdCondicao] = useState<number | null>(resume?.idCondicao ?? null);
  const [errors, setErrors] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const loadedDraft = useRef(false);
  const resent = useRef(false);
  const errorsRef = useRef<HTMLDivElement>(null);

  // A correction starts from the refused draft, once; afterwards the person's edits rule.
  useEffect(() => {
    const draft = fixing?.draft;
    if (loadedDraft.current || !draft) return;
    loadedDraft.current = true;
    setClientId(String(draft.idCliente));
    setLines(linesOfDraft(draft));
    setEndEntrega(draft.endEntrega ?? null);
    setObservacao(draft.observacao ?? '');
    setIdCondicao(draft.idCondicao ?? null);
  }, [fixing]);

  useEffect(() => {
    if (!props.fixId && userId !== null) savedCart = { userId, clientId, lines, endEntrega, observacao, idCondicao };
  }, [props.fixId, userId, clientId, lines, endEntrega, observacao, idCondicao]);

  // The list of problems takes the focus, so a screen reader hears why nothing was sent.
  useEffect(() => {
    if (errors.length) errorsRef.current?.focus();
  }, [errors]);

  const clients = useClients(clientId ? [clientId] : []);
  const client = clientId ? (clients.get(clientId) ?? null) : null;
  const productIds = useMemo(() => lines.map((l) => String(l.idProduto)), [lines]);
  const products = useProducts(productIds);
  const idPauta = client?.idPauta ?? null;
  const { ctx, ceilingsKnown } = useCartContext(idPauta);
  const repeatItems = useMemo<RepeatItem[] | null>(
    () =>
      erpRepeatItems(repeatId) ??
      repeatEntry?.order?.itens ??
      repeatEntry?.draft?.itens.map((i) => ({ idProduto: i.idProduto, quantidade: i.quantidade })) ??
      null,
    [repeatEntry, repeatId],
  );
  const applyRepeat = useCallback((repeated: CartLineInput[]) => setLines(repeated), []);
  const repeatLeft = useRepeat(repeatItems, ctx, client !== null && ceilingsKnown, applyRepeat);
  const previews = lines.map((l) => previewLine(l, products.get(String(l.idProduto)) ?? null, ctx));
  const totals = cartTotals(previews);
  const address = endEntrega ?? client?.deliveryAddress ?? '';
  const blocked = client ? clientBlockReason(client) : null;
  const refusedReasons: SyncOrderReason[] = fixing && fixing.state === 'refused' ? fixing.reasons : [];
  const company = useCompany();
  const pautaName = usePautaName();
  const terms = allowedTerms(company?.paymentTerms ?? [], client);
  const term = chosenTerm(terms, client, idCondicao);

  const updateLine = (index: number, patch: Partial<CartLineInput>) =>
    setLines((all) => all.map((l, i) => (i === index ? { ...l, ...patch } : l)));

  const send = async (e: Event) => {
    e.preventDefault();
    const result = draftOf({
      client,
      endEntrega: address,
      observacao,
      lines: previews,
      payment: { chosen: term, allowed: terms },
    });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    if (!outbox) {
      setErrors(['Os dados deste aparelho ainda estão abrindo. Tente de novo em instantes.']);
      return;
    }
    setSending(true);
    setErrors([]);
    try {
      if (props.fixId) {
        resent.current = true;
        await outbox.resend(props.fixId, result.draft).catch((err: unknown) => {
          resent.current = false;
          throw err;
        });
        route(`/pedidos/${encodeURIComponent(props.fixId)}`);
      } else {
        const id = await outbox.queueOrder(result.draft);
        savedCart = null;
        route(`/pedidos/${encodeURIComponent(id)}`);
      }
    } catch (err) {
      // The cart stays as typed: only the message is new.
      setErrors([err instanceof Error ? err.message : 'Não foi possível guardar o pedido. Tente de novo.']);
    } finally {
      setSending(false);
    }
  };

  if (props.fixId && fixing === undefined) return <p aria-busy="true">Carregando o pedido…</p>;
  // Once resent, the order is queued again: the navigation to it is on its way, not an error.
  if (props.fixId && !resent.current && fixing?.state !== 'refused') {
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
      <RepeatNote left={repeatLeft} />
      {refusedReasons.length ? (
        <article class="refusal" aria-labelledby="cart-refusal-title">
          <h2 id="cart-refusal-title">O servidor recusou este pedido</h2>
          <ReasonList reasons={refusedReasons} />
          <p>Corrija e reenvie: o pedido segue com o mesmo número de envio.</p>
        </article>
      ) : null}
      <form onSubmit={send} noValidate>
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
                <button type="button" class="outline secondary" onClick={() => setClientId(null)}>
                  Trocar cliente
                </button>
              )}
            </article>
          </section>
        ) : clientId && clients.size === 0 ? (
          <p aria-busy="true">Carregando o cliente…</p>
        ) : (
          <ClientPicker
            onPick={(c) => {
              setClientId(c.id);
              setEndEntrega(null);
              setIdCondicao(null);
            }}
          />
        )}

        <section aria-labelledby="cart-lines-title">
          <h2 id="cart-lines-title">Produtos</h2>
          {!ceilingsKnown ? (
            <p class="notice">
              Seus tetos de desconto ainda não chegaram a este aparelho; o teto mostrado é o padrão (5%) até a
              sincronização.
            </p>
          ) : null}
          {client ? (
            <ProductPicker
              idPauta={idPauta}
              inCart={inCart}
              onAdd={(p) => setLines((all) => [...all, newLine(p, ctx)])}
            />
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
                          onInput={(e) => updateLine(i, { quantidade: e.currentTarget.value })}
                          aria-invalid={l.error && l.quantity === null ? 'true' : undefined}
                          aria-describedby={l.error ? errorId : undefined}
                        />
                      </label>
                      <label>
                        Desconto (%)
                        <input
                          inputMode="decimal"
                          value={l.input.desconto}
                          onInput={(e) => updateLine(i, { desconto: e.currentTarget.value })}
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
                      onClick={() => setLines((all) => all.filter((_, j) => j !== i))}
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
              <textarea rows={2} value={address} onInput={(e) => setEndEntrega(e.currentTarget.value)} />
              <ErpText typed={address} />
            </label>
            <label>
              Observação
              <textarea rows={2} value={observacao} onInput={(e) => setObservacao(e.currentTarget.value)} />
              <ErpText typed={observacao} />
            </label>
          </section>
        ) : null}

        {client ? (
          <PaymentTermPicker
            allowed={terms}
            chosen={term}
            defaultId={client.paymentTermId ?? null}
            restricted={!!client.paymentTermIds}
            onChange={setIdCondicao}
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
          <div class="form-errors" role="alert" tabIndex={-1} ref={errorsRef}>
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
          <button type="submit" aria-busy={sending ? 'true' : undefined} disabled={sending}>
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
