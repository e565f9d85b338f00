// The cart's state (cart.tsx draws it): what is typed, the client and products it names, the
// preview the discount engine makes of it, and sending it to the outbox. A new order is kept in
// memory between visits (savedCart below); a correction starts from the refused draft.
import type { SyncOrderReason } from '@campo/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useCompany, useFlexBalance, useMoneyRules } from '../../data/company.ts';
import { useDownloadState } from '../../data/download-state.ts';
import { deviceCredit, queuedTotalFor } from '../../data/queued-figures.ts';
import { useQueuedOrders } from '../../data/queued-orders.ts';
import { store } from '../../data/store.ts';
import type { ClientDoc, ProductDoc } from '../../db/schemas.ts';
import { currentUser } from '../../session/session.ts';
import {
  allowedTerms,
  type CartLineInput,
  cartCredit,
  cartFlex,
  cartTotals,
  chosenTerm,
  clientBlockReason,
  draftOf,
  flexOn,
  linesOfDraft,
  newLine,
  previewLine,
  queuedFlexSpent,
} from './cart-model.ts';
import { useCartContext, useClients, useOrderEntry, useProducts } from './data.ts';
import { erpRepeatItems, type RepeatItem, useRepeat } from './repeat.tsx';

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

/** The cart of a new order, or of the correction of the refused order `fixId`. */
export function useCart(fixId?: string) {
  const { query, route } = useLocation();
  const outbox = store.value?.outbox ?? null;
  // Called for a new order too (hooks cannot be conditional): no document has the empty id.
  const fixEntry = useOrderEntry(fixId ?? '');
  const fixing = fixId ? fixEntry : null;
  const userId = currentUser.value?.id ?? null;
  // "Repetir pedido": a new cart from a past order of this device (its outbox id) or an ERP
  // order whose lines the device fetched (erp-<id>).
  const repeatId = fixId ? null : (query.repetir ?? null);
  const repeatEntry = useOrderEntry(repeatId ?? '');
  const resume = fixId || repeatId ? null : resumableCart(userId, query.cliente ?? null);
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
    if (!fixId && userId !== null) savedCart = { userId, clientId, lines, endEntrega, observacao, idCondicao };
  }, [fixId, userId, clientId, lines, endEntrega, observacao, idCondicao]);

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
  // Filled once the catalog is on the phone: during the first download a product still on its
  // way would be left out as "fora deste aparelho" for good.
  const catalog = useDownloadState('produtos');
  const repeatLeft = useRepeat(repeatItems, ctx, client !== null && ceilingsKnown && !!catalog?.done, applyRepeat);
  const previews = lines.map((l) => previewLine(l, products.get(String(l.idProduto)) ?? null, ctx));
  const totals = cartTotals(previews);
  // Money rules, offline: the orders in the outbox are not on the server's figures yet, so they
  // come off the client's credit and the flex balance here (docs/credit-and-flex.md).
  const moneyRules = useMoneyRules();
  const queued = useQueuedOrders(fixId);
  const flexBalance = useFlexBalance();
  const flex = flexOn(ctx.flex) ? cartFlex(previews, flexBalance?.saldo ?? null, queuedFlexSpent(queued, ctx)) : null;
  const credit = client
    ? cartCredit(deviceCredit(client, queuedTotalFor(queued, Number(client.id))), totals.total, moneyRules.creditPolicy)
    : null;
  const address = endEntrega ?? client?.deliveryAddress ?? '';
  const blocked = client ? clientBlockReason(client) : null;
  const refusedReasons: SyncOrderReason[] = fixing && fixing.state === 'refused' ? fixing.reasons : [];
  const company = useCompany();
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
      flex,
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
      if (fixId) {
        resent.current = true;
        await outbox.resend(fixId, result.draft).catch((err: unknown) => {
          resent.current = false;
          throw err;
        });
        route(`/pedidos/${encodeURIComponent(fixId)}`);
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

  return {
    fixing,
    clientId,
    client,
    /** The client named (by the link or the draft) is still being read from the store. */
    clientLoading: !!clientId && clients.size === 0,
    idPauta,
    blocked,
    lines,
    previews,
    totals,
    flex,
    credit,
    ceilingsKnown,
    repeatLeft,
    refusedReasons,
    address,
    observacao,
    terms,
    term,
    errors,
    errorsRef,
    sending,
    /** Resent: the navigation to the order is on its way. */
    resent: resent.current,
    pickClient: (c: ClientDoc) => {
      setClientId(c.id);
      setEndEntrega(null);
      setIdCondicao(null);
    },
    changeClient: () => setClientId(null),
    ctx,
    addProduct: (p: ProductDoc) => setLines((all) => [...all, newLine(p, ctx)]),
    /** Lines of the suggestion (cart-suggestion.tsx); a product already in the cart is not added twice. */
    addLines: (added: CartLineInput[]) =>
      setLines((all) => [...all, ...added.filter((a) => !all.some((l) => l.idProduto === a.idProduto))]),
    updateLine,
    removeLine: (index: number) => setLines((all) => all.filter((_, j) => j !== index)),
    setEndEntrega,
    setObservacao,
    setIdCondicao,
    send,
  };
}
