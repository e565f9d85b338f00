// Início of a representative: today's route (from the device), the month's target and
// commission (from the server, the last figures kept for offline use), inactive clients to
// visit, the latest orders, today's positivation against the company's daily target and the
// flex balance (from the device).

import type { RepDashboard as Dashboard, OrderStatus } from '@campo/shared';
import { formatBrl, formatMonth, pluralWord } from '@campo/shared/format';
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { map } from 'rxjs';
import { ApiError, errorMessage } from '../../api.ts';
import { useFlexBalance, useMoneyRules } from '../../data/company.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { type CachedDashboard, readCachedDashboard, refreshDashboard } from '../../data/rep-dashboard.ts';
import { collectionOf } from '../../db/database.ts';
import type { OrderDoc, SettingsDoc } from '../../db/schemas.ts';
import { PushButton } from '../../push/push-button.tsx';
import { localPositivation, saoPauloDay } from './positivation.ts';
import { RouteCard } from './route-card.tsx';

const pct = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0 });
const rate = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
const stamp = new Intl.DateTimeFormat('pt-BR', {
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
const day = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' });

const STATUS: Record<OrderStatus | 'queued' | 'refused', string> = {
  queued: 'Aguardando envio',
  refused: 'Recusado pelo servidor',
  pending_approval: 'Aguardando aprovação',
  approved: 'Aprovado',
  invoiced: 'Faturado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado no ERP',
};

const monthName = formatMonth;

function TargetChart(props: { billed: number; target: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let destroy: (() => void) | null = null;
    let gone = false;
    import('./target-chart.ts')
      .then(({ drawTarget }) => {
        if (!gone && canvas.current) destroy = drawTarget(canvas.current, props.billed, props.target);
      })
      // The figures are also written out beside the ring: without the chart nothing is lost.
      .catch(() => undefined);
    return () => {
      gone = true;
      destroy?.();
    };
  }, [props.billed, props.target]);
  return (
    <div class="target-chart">
      <canvas ref={canvas} role="img" aria-label={props.label} width={160} height={160} />
    </div>
  );
}

function MonthCard(props: { data: Dashboard }) {
  const { meta, comissao, mes } = props.data;
  const progress = meta.progresso;
  const label =
    meta.valor !== null
      ? `Faturado ${formatBrl(meta.faturamento)} de ${formatBrl(meta.valor)} da meta (${pct.format(progress ?? 0)})`
      : `Faturado ${formatBrl(meta.faturamento)}; sem meta`;
  return (
    <>
      <article class="card-meta" aria-labelledby="meta-titulo">
        <h2 id="meta-titulo">Meta de {monthName(mes)}</h2>
        <div class="meta-body">
          {meta.valor !== null && meta.valor > 0 && (
            <TargetChart billed={meta.faturamento} target={meta.valor} label={label} />
          )}
          <dl class="figures">
            <dt>Faturado</dt>
            <dd>{formatBrl(meta.faturamento)}</dd>
            <dt>Meta</dt>
            <dd>{meta.valor !== null && meta.valor > 0 ? formatBrl(meta.valor) : 'sem meta'}</dd>
            {progress !== null && (
              <>
                <dt>Atingido</dt>
                <dd>
                  <strong>{pct.format(progress)}</strong>
                </dd>
              </>
            )}
          </dl>
        </div>
      </article>
      <article aria-labelledby="comissao-titulo">
        <h2 id="comissao-titulo">Comissão do mês</h2>
        <dl class="figures">
          <dt>Parte fixa{comissao.percFixa !== null ? ` (${rate.format(comissao.percFixa)}%)` : ''}</dt>
          <dd>{formatBrl(comissao.fixa)}</dd>
          <dt>Parte FLEX{comissao.percFlex !== null ? ` (${rate.format(comissao.percFlex)}%)` : ''}</dt>
          <dd>{formatBrl(comissao.flex)}</dd>
          <dt>Total</dt>
          <dd>
            <strong>{formatBrl(comissao.total)}</strong>
          </dd>
        </dl>
        <p class="hint">A parte FLEX vem do que foi vendido acima do preço de tabela.</p>
      </article>
    </>
  );
}

function Positivation(props: { count: number; target: number | null }) {
  const { count, target } = props;
  return (
    <article aria-labelledby="positivacao-titulo">
      <h2 id="positivacao-titulo">Positivação de hoje</h2>
      {target !== null && target > 0 ? (
        <>
          <p>
            <strong>{count}</strong> de {target} {pluralWord(target, 'cliente', 'clientes')} com pedido hoje
            {count >= target ? ' — meta do dia batida!' : ''}
          </p>
          <progress value={Math.min(count, target)} max={target} aria-label="Positivação de hoje" />
        </>
      ) : (
        <p>
          <strong>{count}</strong> {pluralWord(count, 'cliente', 'clientes')} com pedido hoje (a empresa não definiu
          meta diária).
        </p>
      )}
    </article>
  );
}

type ErpRecent = Dashboard['pedidosErpRecentes'][number];

const ERP_STATUS: Record<ErpRecent['status'], string> = {
  pending_approval: 'Aguardando aprovação',
  approved: 'Aprovado',
  invoiced: 'Faturado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado',
};

interface RecentRow {
  key: string;
  at: string;
  text: string;
  status: string;
  erp: boolean;
  href?: string;
}

/**
 * The device's orders and the ERP's (telesales, counter) of the portfolio, from the server's
 * last dashboard: a client the ERP sold to today is positivated, so the list must show why.
 */
function RecentOrders(props: { orders: OrderDoc[]; erp: ErpRecent[] | null }) {
  const rows: RecentRow[] = [
    ...props.orders.map((doc) => ({
      key: doc.id,
      at: doc.order?.criadoEm ?? doc.queuedAt ?? doc.updatedAt,
      text: doc.order
        ? `Pedido ${doc.order.numPedSar} · ${doc.order.nomeCliente} · ${formatBrl(doc.order.valorTotal)}`
        : 'Pedido na fila',
      status: STATUS[doc.status as keyof typeof STATUS] ?? doc.status,
      erp: false,
      href: `/pedidos/${encodeURIComponent(doc.id)}`,
    })),
    ...(props.erp ?? []).map((o) => ({
      key: `erp-${o.erpId}`,
      at: o.emitidoEm,
      text: `Pedido ${o.numero ?? '—'} · ${o.nomeCliente ?? `Cliente ${o.idCliente}`} · ${formatBrl(o.valorTotal)}`,
      status: ERP_STATUS[o.status],
      erp: true,
      href: `/clientes/${o.idCliente}/pedidos-erp/${o.erpId}`,
    })),
  ];
  const recent = rows.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, 5);
  return (
    <article aria-labelledby="recentes-titulo">
      <h2 id="recentes-titulo">Pedidos recentes</h2>
      {recent.length === 0 ? (
        <p>
          {props.erp === null
            ? 'Nenhum pedido neste aparelho ainda; os pedidos feitos no ERP aparecem quando houver conexão.'
            : 'Nenhum pedido nos últimos 7 dias, neste aparelho ou no ERP.'}
        </p>
      ) : (
        <ul class="plain-list">
          {recent.map((r) => (
            <li key={r.key}>
              <span>
                <a href={r.href}>{r.text}</a>
                {r.erp && (
                  <>
                    {' '}
                    <span class="badge">ERP</span>
                  </>
                )}
              </span>
              <small>
                {r.status} · {stamp.format(new Date(r.at))}
              </small>
            </li>
          ))}
        </ul>
      )}
      <a href="/pedidos">Ver todos os pedidos</a>
    </article>
  );
}

function InactiveClients(props: { data: Dashboard }) {
  const { total, itens } = props.data.clientesInativos;
  return (
    <article aria-labelledby="inativos-titulo">
      <h2 id="inativos-titulo">Clientes inativos ({total})</h2>
      <p class="hint">Sem pedido há mais de 30 dias.</p>
      {itens.length === 0 ? (
        <p>Nenhum cliente inativo na carteira.</p>
      ) : (
        <ul class="plain-list">
          {itens.map((c) => (
            <li key={c.idCliente}>
              <a href={`/clientes/${c.idCliente}`}>{c.nome ?? `Cliente ${c.idCliente}`}</a>
              <small>
                {c.ultimoPedidoEm ? `Último pedido em ${day.format(new Date(c.ultimoPedidoEm))}` : 'Nunca comprou'}
              </small>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/**
 * The flex balance the device holds, linking to Saldo flex: shown while the tenant runs flex,
 * or while something is left on the balance after it turned flex off.
 */
function FlexCard() {
  const rules = useMoneyRules();
  const flex = useFlexBalance();
  const on = rules.flexMaxBeyondCeilingPoints > 0 || rules.flexCreditSharePercent > 0;
  if (!flex || (!on && flex.saldo === 0)) return null;
  return (
    <article aria-labelledby="flex-card-titulo">
      <h2 id="flex-card-titulo">Saldo flex</h2>
      <p>
        <a href="/flex" class="flex-card-link">
          Saldo flex <strong>{formatBrl(flex.saldo)}</strong>
        </a>
      </p>
    </article>
  );
}

export function RepDashboard(props: { name: string }) {
  const cached = useSignal<CachedDashboard | null>(readCachedDashboard());
  const loading = useSignal(true);
  const problem = useSignal<string | null>(null);

  const orders = useStoreObservable<OrderDoc[]>(
    (s) =>
      collectionOf(s.db, 'pedidos')
        .find()
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as OrderDoc))),
    [],
  );
  const dailyTarget = useStoreObservable<number | null>(
    (s) =>
      collectionOf(s.db, 'ajustes')
        .findOne('empresa')
        .$.pipe(map((d) => (d ? ((d.toJSON() as SettingsDoc).empresa?.metaPositivacaoDia ?? null) : null))),
    null,
  );

  useEffect(() => {
    const ctrl = new AbortController();
    refreshDashboard(ctrl.signal)
      .then((c) => {
        cached.value = c;
        problem.value = null;
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        problem.value =
          err instanceof ApiError && err.code === 'NETWORK_ERROR'
            ? 'Sem conexão: mostrando os últimos números recebidos.'
            : errorMessage(err);
      })
      .finally(() => {
        loading.value = false;
      });
    return () => ctrl.abort();
  }, []);

  const c = cached.value;
  const serverToday = c && saoPauloDay(c.at) === saoPauloDay(new Date()) ? c.data.positivacaoHoje.clientes : 0;
  // The server also counts ERP orders; the device knows of orders not sent yet: the larger
  // of the two is the closest to the truth while offline.
  const positivated = Math.max(serverToday, localPositivation(orders));
  const target = dailyTarget ?? c?.data.positivacaoHoje.meta ?? null;

  return (
    <section class="dashboard">
      <h1>Início</h1>
      <p>
        Olá, <strong>{props.name}</strong>.
      </p>
      <PushButton />
      {c && <p class="hint">Números do mês atualizados em {stamp.format(new Date(c.at))}.</p>}
      {problem.value && (
        <p class="notice" role="alert">
          {problem.value}
        </p>
      )}
      <div class="dashboard-grid">
        <RouteCard />
        <Positivation count={positivated} target={target} />
        <FlexCard />
        {c ? (
          <MonthCard data={c.data} />
        ) : (
          <article aria-busy={loading.value ? 'true' : undefined}>
            {loading.value ? 'Carregando a meta e a comissão…' : 'A meta e a comissão aparecem quando houver conexão.'}
          </article>
        )}
        {c && <InactiveClients data={c.data} />}
        <RecentOrders orders={orders} erp={c ? (c.data.pedidosErpRecentes ?? []) : null} />
      </div>
    </section>
  );
}
