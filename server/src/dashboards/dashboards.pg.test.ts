// The dashboards against figures computed here, independently, from the raw ERP tables
// (notas_fiscais, pedidos_venda, pedidos_venda_itens, vendedores, supervisores, corrent; on
// the odoo profile account_move, sale_order, sale_order_line, res_users, crm_team,
// res_partner) and app.pedidos, in JavaScript, on the tiny fixture (built as of now, so the
// month has data).
import type {
  ManagerDashboard,
  Order,
  RepDashboard,
  RepRanking,
  SupervisorCards,
  SupervisorDashboard,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { placeOrder } from '../../../test/support/builders.ts';
import { clearForOrders, type ErpPeople, provisionedErp, TEST_ERP_PROFILE } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';

const db = useTestDatabase();
const ODOO = TEST_ERP_PROFILE === 'odoo';
type App = ReturnType<typeof testApp>;
type Rep = ErpPeople['reps'][number];

interface Raw {
  today: string;
  ini: string;
  fim: string;
  prevIni: string;
  notas: { cod_vendedor: number; d: string; v: number; id_pedido: number | null; cancelada: string }[];
  erp: {
    id_pedido: number;
    cod_vendedor: number;
    id_corrent: number;
    d: string;
    situacao: string;
    origem: string;
    num_ped_sar: number | null;
    ms: number;
  }[];
  campo: { cod_vendedor: number; id_cliente: number; situa: number; d: string; ms: number }[];
  itens: { id_pedido: number; q: number; pu: number; pt: number }[];
  reps: {
    cod_vendedor: number;
    cod_supervisor: number | null;
    perc_comissao: number | null;
    perc_comissao_flex: number | null;
  }[];
  supervisores: { cod_supervisor: number }[];
  clientes: { id_corrent: number; cod_vendedor: number | null; ms: number | null }[];
  metas: { cod_vendedor: number; valor: number }[];
  meta: number | null;
}

async function loadRaw(idEmpresa: number): Promise<Raw> {
  const q = async <T>(text: string, params: unknown[] = [idEmpresa]) => (await db.pool.query(text, params)).rows as T[];
  const filiais = ODOO
    ? '(select id from res_company where coalesce(parent_id, id) = $1)'
    : `(select id_empresa from empresas where coalesce(id_matriz, id_empresa) = $1)`;
  const [cal] = await q<{ today: string }>(
    `select to_char(now() at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') as today`,
    [],
  );
  const today = cal?.today as string;
  const ini = `${today.slice(0, 7)}-01`;
  const next = new Date(`${ini}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const prev = new Date(`${ini}T00:00:00Z`);
  prev.setUTCMonth(prev.getUTCMonth() - 1);
  const spMs = (col: string) =>
    `(extract(epoch from (${col})::timestamp at time zone 'America/Sao_Paulo') * 1000)::float8`;
  return {
    today,
    ini,
    fim: next.toISOString().slice(0, 10),
    prevIni: prev.toISOString().slice(0, 10),
    ...(ODOO ? await odooRaw(q, filiais, spMs) : await referenceRaw(q, filiais, spMs)),
    campo: await q(
      `select cod_vendedor, id_cliente, situa, to_char(criado_em at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') as d,
              (extract(epoch from criado_em) * 1000)::float8 as ms
         from app.pedidos where id_empresa = $1`,
    ),
    metas: await q(`select cod_vendedor, valor_meta::float8 as valor from app.metas_representante
                     where id_empresa = $1 and mes = date_trunc('month', now() at time zone 'America/Sao_Paulo')::date`),
    meta:
      (
        await q<{ m: number | null }>('select meta_positivacao_dia as m from app.config_empresa where id_empresa = $1')
      )[0]?.m ?? null,
  };
}

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;
type ErpRaw = Pick<Raw, 'notas' | 'erp' | 'itens' | 'reps' | 'supervisores' | 'clientes'>;

async function referenceRaw(q: Query, filiais: string, spMs: (col: string) => string): Promise<ErpRaw> {
  return {
    notas: await q(
      `select cod_vendedor, dt_emissao::text as d, valor_total::float8 as v, id_pedido, cancelada
         from notas_fiscais where id_empresa in ${filiais}`,
    ),
    erp: await q(
      `select id_pedido, cod_vendedor, id_corrent, to_char(dt_emissao, 'YYYY-MM-DD') as d, situacao, origem, num_ped_sar,
              ${spMs('dt_emissao')} as ms
         from pedidos_venda where id_empresa in ${filiais}`,
    ),
    itens: await q(
      `select i.id_pedido, i.quantidade::float8 as q, i.preco_unitario::float8 as pu, i.preco_tabela::float8 as pt
         from pedidos_venda_itens i join pedidos_venda pv on pv.id_pedido = i.id_pedido
        where pv.id_empresa in ${filiais}`,
    ),
    reps: await q(
      `select cod_vendedor, cod_supervisor, perc_comissao::float8, perc_comissao_flex::float8
         from vendedores where id_empresa in ${filiais}`,
    ),
    supervisores: await q(`select cod_supervisor from supervisores where id_empresa in ${filiais} order by 1`),
    clientes: await q(
      `select id_corrent, cod_vendedor, ${spMs('dt_ultima_compra')} as ms
         from corrent where tipo = 'C' and id_empresa in ${filiais}`,
    ),
  };
}

/** The same raw figures from the Odoo-shaped ERP's own tables (docs/erp-profile-odoo.md). */
async function odooRaw(q: Query, filiais: string, spMs: (col: string) => string): Promise<ErpRaw> {
  // Odoo keeps UTC: the order's wall-clock time in Sao Paulo, as the reference ERP keeps it.
  const local = "((so.date_order at time zone 'UTC') at time zone 'America/Sao_Paulo')";
  return {
    notas: await q(
      `select m.invoice_user_id as cod_vendedor, m.invoice_date::text as d, m.amount_total::float8 as v,
              so.id as id_pedido, case when m.state = 'cancel' then 'S' else 'N' end as cancelada
         from account_move m
         left join sale_order so on so.company_id = m.company_id and so.name = m.invoice_origin
        where m.move_type = 'out_invoice' and m.state in ('posted', 'cancel') and m.company_id in ${filiais}`,
    ),
    erp: await q(
      `select so.id as id_pedido, so.user_id as cod_vendedor, so.partner_id as id_corrent,
              to_char(${local}, 'YYYY-MM-DD') as d,
              case when so.state = 'cancel' then 'C' when so.invoice_status = 'invoiced' then 'F' else 'A' end as situacao,
              coalesce(so.origin, 'ERP') as origem, nullif(so.client_order_ref, '')::int as num_ped_sar,
              ${spMs(local)} as ms
         from sale_order so where so.state not in ('draft', 'sent') and so.company_id in ${filiais}`,
    ),
    itens: await q(
      `select l.order_id as id_pedido, l.product_uom_qty::float8 as q, l.price_reduce::float8 as pu,
              l.price_unit::float8 as pt
         from sale_order_line l join sale_order so on so.id = l.order_id
        where so.company_id in ${filiais}`,
    ),
    reps: await q(
      `select u.id as cod_vendedor, (select min(m.crm_team_id) from crm_team_member m where m.user_id = u.id and m.active) as cod_supervisor,
              coalesce(x.perc_comissao, 0)::float8 as perc_comissao, coalesce(x.perc_comissao_flex, 0)::float8 as perc_comissao_flex
         from res_users u left join x_campo_vendedor x on x.user_id = u.id
        where u.company_id in ${filiais} and exists (select 1 from crm_team_member m where m.user_id = u.id and m.active)`,
    ),
    supervisores: await q(`select id as cod_supervisor from crm_team where company_id in ${filiais} order by 1`),
    clientes: await q(
      `select id as id_corrent, user_id as cod_vendedor,
              ${spMs("case when x_data_ultima_compra ~ '^[0-9]{2}/[0-9]{2}/[0-9]{4}$' then to_date(x_data_ultima_compra, 'DD/MM/YYYY') end")} as ms
         from res_partner where customer_rank > 0 and company_id in ${filiais}`,
    ),
  };
}

const inPeriod = (d: string, ini: string, fim: string) => d >= ini && d < fim;

/** Billing of some reps (all when `reps` is undefined) in [ini, fim). */
function billing(raw: Raw, ini: string, fim: string, reps?: Set<number>): number {
  return raw.notas
    .filter((n) => n.cancelada === 'N' && inPeriod(n.d, ini, fim) && (!reps || reps.has(n.cod_vendedor)))
    .reduce((s, n) => s + n.v, 0);
}

/** Distinct clients with a Campo order not rejected or an ERP order not cancelled (copies of Campo orders left out). */
function positivation(raw: Raw, ini: string, fim: string, reps?: Set<number>): number {
  const clients = new Set<number>();
  for (const o of raw.campo) {
    if (o.situa !== 4 && inPeriod(o.d, ini, fim) && (!reps || reps.has(o.cod_vendedor))) clients.add(o.id_cliente);
  }
  for (const o of raw.erp) {
    const copy = o.origem === 'CAMPO' && o.num_ped_sar !== null;
    if (!copy && o.situacao !== 'C' && inPeriod(o.d, ini, fim) && (!reps || reps.has(o.cod_vendedor))) {
      clients.add(o.id_corrent);
    }
  }
  return clients.size;
}

function flexBase(raw: Raw, codVendedor: number): number {
  const valid = raw.notas.filter((n) => n.cancelada === 'N' && n.id_pedido !== null);
  const orders = new Set(
    valid
      .filter((n) => n.cod_vendedor === codVendedor && inPeriod(n.d, raw.ini, raw.fim))
      .map((n) => n.id_pedido as number)
      .filter((id) => !valid.some((n) => n.id_pedido === id && n.d < raw.ini)),
  );
  return raw.itens.filter((i) => orders.has(i.id_pedido)).reduce((s, i) => s + Math.max((i.pu - i.pt) * i.q, 0), 0);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

describe('dashboards', () => {
  let app: App;
  let rep: Rep;
  let idEmpresa: number;
  let otherTenant: number;
  const tokens: Record<string, string> = {};
  const created: Record<'pending' | 'rejected' | 'approved', Order | undefined> = {
    pending: undefined,
    rejected: undefined,
    approved: undefined,
  };
  const get = async <T>(who: string, path: string, status = 200) => {
    const res = await apiAs(app, tokens[who] as string)('GET', path);
    if (res.status !== status) throw new Error(`${path} as ${who}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    app = testApp(db.pool);
    rep = erp.reps[0] as Rep;
    idEmpresa = rep.idEmpresa;
    const otherSup = erp.supervisors.find((s) => s.idEmpresa === idEmpresa && s.codSupervisor !== rep.codSupervisor);
    tokens.rep = await logInAs(app, db.pool, {
      login: 'rep@d.test',
      role: 'representative',
      idEmpresa,
      codVendedor: rep.codVendedor,
    });
    tokens.sup = await logInAs(app, db.pool, {
      login: 'sup@d.test',
      role: 'supervisor',
      idEmpresa,
      codSupervisor: rep.codSupervisor,
    });
    if (otherSup) {
      tokens.otherSup = await logInAs(app, db.pool, {
        login: 'sup2@d.test',
        role: 'supervisor',
        idEmpresa,
        codSupervisor: otherSup.codSupervisor,
      });
    }
    tokens.mgr = await logInAs(app, db.pool, { login: 'mgr@d.test', role: 'manager', idEmpresa });
    otherTenant = erp.tenants.find((t) => t !== idEmpresa) as number;
    tokens.otherAdmin = await logInAs(app, db.pool, { login: 'adm2@d.test', role: 'admin', idEmpresa: otherTenant });

    // Three orderable clients of the rep: one pending, one rejected, one approved today.
    const clients = (
      await db.pool.query<{ id_cliente: number; id_pauta: number }>(
        `select id_cliente, id_pauta from app.vw_clientes
          where id_empresa = $1 and cod_vendedor = $2 and id_pauta is not null order by id_cliente limit 3`,
        [idEmpresa, rep.codVendedor],
      )
    ).rows;
    expect(clients).toHaveLength(3);
    const ids = clients.map((c) => c.id_cliente);
    for (const id of ids) await clearForOrders(db.pool, id);
    const order = async (c: { id_cliente: number; id_pauta: number }) => {
      const product = await db.pool.query<{ id_produto: number }>(
        `select p.id_produto from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto
          where p.id_empresa = $1 and p.ativo and pr.id_pauta = $2 order by 1 limit 1`,
        [idEmpresa, c.id_pauta],
      );
      return placeOrder(apiAs(app, tokens.rep as string), {
        idCliente: c.id_cliente,
        itens: [{ idProduto: product.rows[0]?.id_produto as number, quantidade: 2, descontoPercent: 0 }],
      });
    };
    const api = apiAs(app, tokens.sup as string);
    created.pending = await order(clients[0] as (typeof clients)[number]);
    const toReject = await order(clients[1] as (typeof clients)[number]);
    created.rejected = (await (
      await api('POST', `/orders/${toReject.id}/reject`, { motivo: 'teste' })
    ).json()) as Order;
    const toApprove = await order(clients[2] as (typeof clients)[number]);
    created.approved = (await (await api('POST', `/orders/${toApprove.id}/approve`)).json()) as Order;
    expect(created.approved.erpIdPedido).toEqual(expect.any(Number));
    // The approved order's ERP copy is invoiced today, one line sold above the list price (FLEX).
    if (ODOO) {
      await db.pool.query('update sale_order_line set price_reduce = price_unit + 1.5 where order_id = $1', [
        created.approved.erpIdPedido,
      ]);
      await db.pool.query(
        `insert into account_move (name, move_type, state, company_id, partner_id, invoice_user_id, invoice_date, date,
                                   invoice_origin, amount_total, x_nf_numero, x_nf_serie)
         select 'NF/T/' || (900000 + n), 'out_invoice', case n when 1 then 'posted' else 'cancel' end, company_id,
                partner_id, user_id, (now() at time zone 'America/Sao_Paulo')::date,
                (now() at time zone 'America/Sao_Paulo')::date, name, 123.45 * n, 900000 + n, 'T'
           from sale_order, generate_series(1, 2) n where id = $1`,
        [created.approved.erpIdPedido],
      );
    } else {
      await db.pool.query('update pedidos_venda_itens set preco_unitario = preco_tabela + 1.5 where id_pedido = $1', [
        created.approved.erpIdPedido,
      ]);
      await db.pool.query(
        `insert into notas_fiscais (id_empresa, num_nota, serie, id_pedido, id_corrent, cod_vendedor, dt_emissao, valor_total, cancelada)
         select id_empresa, 900000 + n, 'T', id_pedido, id_corrent, cod_vendedor,
                (now() at time zone 'America/Sao_Paulo')::date, 123.45 * n, case n when 1 then 'N' else 'S' end
           from pedidos_venda, generate_series(1, 2) n where id_pedido = $1`,
        [created.approved.erpIdPedido],
      );
    }
    // Targets of the month for the rep and for every other rep of the team; the daily positivation target.
    await db.pool.query(
      `insert into app.metas_representante (id_empresa, cod_vendedor, mes, valor_meta)
       select $1, v.cod_vendedor, date_trunc('month', now() at time zone 'America/Sao_Paulo')::date, 1000 * v.cod_vendedor
         from app.vw_vendedores v where v.id_empresa = $1 and v.cod_supervisor = $2`,
      [idEmpresa, rep.codSupervisor],
    );
    const put = await apiAs(app, tokens.mgr as string)('PUT', '/dashboard/manager/meta-positivacao-dia', {
      metaPositivacaoDia: 4,
    });
    expect(put.status).toBe(200);
  });

  it('representative: target, commission (fixed and FLEX), inactive clients, recent orders, positivation', async () => {
    const raw = await loadRaw(idEmpresa);
    const me = new Set([rep.codVendedor]);
    const d = await get<RepDashboard>('rep', '/dashboard/rep');
    const fat = billing(raw, raw.ini, raw.fim, me);
    const meta = raw.metas.find((m) => m.cod_vendedor === rep.codVendedor)?.valor as number;
    expect(d.codVendedor).toBe(rep.codVendedor);
    expect(d.mes).toBe(raw.today.slice(0, 7));
    expect(d.meta.valor).toBe(meta);
    expect(d.meta.faturamento).toBeCloseTo(fat, 2);
    expect(d.meta.progresso).toBeCloseTo(fat / meta, 6);

    const r = raw.reps.find((x) => x.cod_vendedor === rep.codVendedor);
    const base = flexBase(raw, rep.codVendedor);
    expect(base).toBeGreaterThan(0);
    expect(d.comissao.baseFlex).toBeCloseTo(base, 2);
    expect(d.comissao.fixa).toBeCloseTo(((r?.perc_comissao ?? 0) / 100) * fat, 2);
    expect(d.comissao.flex).toBeCloseTo(((r?.perc_comissao_flex ?? 0) / 100) * base, 2);
    expect(d.comissao.total).toBeCloseTo(d.comissao.fixa + d.comissao.flex, 2);

    // Inactive: latest order (Campo not rejected, ERP not cancelled, ERP last purchase) over 30 days ago, or never.
    const limit = Date.now() - 30 * 86_400_000;
    const last = raw.clientes
      .filter((c) => c.cod_vendedor === rep.codVendedor)
      .map((c) => {
        const times = [
          c.ms,
          ...raw.campo.filter((o) => o.id_cliente === c.id_corrent && o.situa !== 4).map((o) => o.ms),
          ...raw.erp.filter((o) => o.id_corrent === c.id_corrent && o.situacao !== 'C').map((o) => o.ms),
        ].filter((t): t is number => t !== null);
        return { id: c.id_corrent, last: times.length ? Math.max(...times) : null };
      });
    const inactive = last
      .filter((c) => c.last === null || c.last < limit)
      .sort((a, b) => (b.last ?? Number.NEGATIVE_INFINITY) - (a.last ?? Number.NEGATIVE_INFINITY) || a.id - b.id);
    expect(inactive.length).toBeGreaterThan(0);
    expect(d.clientesInativos.total).toBe(inactive.length);
    expect(d.clientesInativos.itens.map((c) => c.idCliente)).toEqual(inactive.slice(0, 20).map((c) => c.id));

    expect(d.pedidosRecentes.map((o) => [o.id, o.status])).toEqual([
      [created.approved?.id, 'approved'],
      [created.rejected?.id, 'rejected'],
      [created.pending?.id, 'pending_approval'],
    ]);

    // ERP-born orders (not Campo's replicas) of the rep's portfolio in the last 7 São Paulo days.
    const weekStart = new Date(`${raw.today}T00:00:00Z`);
    weekStart.setUTCDate(weekStart.getUTCDate() - 6);
    const from = weekStart.toISOString().slice(0, 10);
    const portfolio = new Set(raw.clientes.filter((c) => c.cod_vendedor === rep.codVendedor).map((c) => c.id_corrent));
    const erpRecent = raw.erp
      .filter((o) => o.origem !== 'CAMPO' && portfolio.has(o.id_corrent) && o.d >= from)
      .sort((a, b) => b.ms - a.ms || b.id_pedido - a.id_pedido)
      .slice(0, 20)
      .map((o) => o.id_pedido);
    expect(erpRecent.length).toBeGreaterThan(0);
    expect(d.pedidosErpRecentes.map((o) => o.erpId)).toEqual(erpRecent);

    const today = positivation(raw, raw.today, `${raw.today}z`, me);
    expect(d.positivacaoHoje).toEqual({ clientes: today, meta: 4, progresso: today / 4 });
    // The pending and the approved order's clients count, the rejected one's does not (unless the ERP has it).
    const rejectedElsewhere = raw.erp.some(
      (o) => o.id_corrent === created.rejected?.idCliente && o.d === raw.today && o.situacao !== 'C',
    );
    const withoutRejected = positivation(
      { ...raw, campo: raw.campo.filter((o) => o.situa !== 4) },
      raw.today,
      `${raw.today}z`,
      me,
    );
    expect(today).toBe(withoutRejected);
    if (!rejectedElsewhere) {
      const withRejected = positivation(
        { ...raw, campo: raw.campo.map((o) => ({ ...o, situa: 1 })) },
        raw.today,
        `${raw.today}z`,
        me,
      );
      expect(withRejected).toBe(today + 1);
    }

    // Asked by the supervisor, a manager: the same figures.
    const bySup = await get<RepDashboard>('sup', `/dashboard/rep?codVendedor=${rep.codVendedor}`);
    expect(bySup.comissao).toEqual(d.comissao);
    const byMgr = await get<RepDashboard>('mgr', `/dashboard/rep?codVendedor=${rep.codVendedor}&mes=${d.mes}`);
    expect(byMgr.meta).toEqual(d.meta);
  });

  it('representative dashboard: reach and input', async () => {
    const other = (await loadRaw(idEmpresa)).reps.find((r) => r.cod_vendedor !== rep.codVendedor);
    await get('rep', `/dashboard/rep?codVendedor=${other?.cod_vendedor}`, 404);
    await get('mgr', '/dashboard/rep', 400);
    await get('rep', '/dashboard/rep?mes=2026-13', 400);
    if (tokens.otherSup) await get('otherSup', `/dashboard/rep?codVendedor=${rep.codVendedor}`, 404);
    await get('rep', '/dashboard/supervisor', 403);
    await get('sup', '/dashboard/manager', 403);
    if (tokens.otherSup) await get('sup', '/dashboard/supervisor?codSupervisor=999999', 404);
  });

  it('supervisor: ranking by billing and by positivation with targets, and the team positivation today', async () => {
    const raw = await loadRaw(idEmpresa);
    const team = raw.reps.filter((r) => r.cod_supervisor === rep.codSupervisor);
    const expected: RepRanking[] = team.map((r) => {
      const one = new Set([r.cod_vendedor]);
      const faturamento = round2(billing(raw, raw.ini, raw.fim, one));
      const meta = raw.metas.find((m) => m.cod_vendedor === r.cod_vendedor)?.valor ?? null;
      return {
        codVendedor: r.cod_vendedor,
        nome: expect.anything() as unknown as string,
        faturamento,
        positivacao: positivation(raw, raw.ini, raw.fim, one),
        meta,
        progresso: meta ? faturamento / meta : null,
      };
    });
    const byCode = (a: RepRanking, b: RepRanking) => a.codVendedor - b.codVendedor;
    const d = await get<SupervisorDashboard>('sup', '/dashboard/supervisor');
    expect(d.codSupervisor).toBe(rep.codSupervisor);
    const strip = (rows: RepRanking[]) =>
      rows.map((r) => ({ ...r, progresso: r.progresso === null ? null : round2(r.progresso * 1e4) }));
    expect(strip(d.porFaturamento)).toEqual(
      strip([...expected].sort((a, b) => b.faturamento - a.faturamento || byCode(a, b))),
    );
    expect(d.porPositivacao.map((r) => [r.codVendedor, r.positivacao])).toEqual(
      [...expected]
        .sort((a, b) => b.positivacao - a.positivacao || byCode(a, b))
        .map((r) => [r.codVendedor, r.positivacao]),
    );
    const teamToday = positivation(raw, raw.today, `${raw.today}z`, new Set(team.map((r) => r.cod_vendedor)));
    expect(d.positivacaoHoje).toEqual({ clientes: teamToday, meta: 4, progresso: teamToday / 4 });
    // A manager names the supervisor and gets the same.
    expect(await get<SupervisorDashboard>('mgr', `/dashboard/supervisor?codSupervisor=${rep.codSupervisor}`)).toEqual(
      d,
    );
  });

  it('manager: tenant totals, daily target and per-supervisor cards (with the monthly variation)', async () => {
    const raw = await loadRaw(idEmpresa);
    const cards = raw.supervisores.map((s) => {
      const team = new Set(raw.reps.filter((r) => r.cod_supervisor === s.cod_supervisor).map((r) => r.cod_vendedor));
      const faturamento = round2(billing(raw, raw.ini, raw.fim, team));
      const anterior = round2(billing(raw, raw.prevIni, raw.ini, team));
      const active = [...team].filter(
        (v) =>
          billing(raw, raw.ini, raw.fim, new Set([v])) > 0 || positivation(raw, raw.ini, raw.fim, new Set([v])) > 0,
      );
      return {
        codSupervisor: s.cod_supervisor,
        faturamento,
        faturamentoMesAnterior: anterior,
        variacaoPercent: anterior === 0 ? null : round2(((faturamento - anterior) / anterior) * 100),
        meta: round2(raw.metas.filter((m) => team.has(m.cod_vendedor)).reduce((a, m) => a + m.valor, 0)),
        positivacao: positivation(raw, raw.ini, raw.fim, team),
        representantes: team.size,
        representantesAtivos: active.length,
      };
    });
    expect(cards.some((c) => c.variacaoPercent !== null)).toBe(true);
    const got = await get<SupervisorCards>('mgr', '/equipe/supervisores');
    expect(got.mes).toBe(raw.today.slice(0, 7));
    expect(got.itens.map(({ nome: _, ...c }) => c)).toEqual(cards);

    const m = await get<ManagerDashboard>('mgr', '/dashboard/manager');
    expect(m.faturamento).toBeCloseTo(billing(raw, raw.ini, raw.fim), 2);
    expect(m.positivacao).toBe(positivation(raw, raw.ini, raw.fim));
    expect(m.pedidosPendentes).toBe(raw.campo.filter((o) => o.situa === 1).length);
    const today = positivation(raw, raw.today, `${raw.today}z`);
    expect(m.positivacaoHoje).toEqual({ clientes: today, meta: 4, progresso: today / 4 });
    expect(m.supervisores).toEqual(got.itens);
  });

  it("another tenant's admin sees only its own tenant's figures", async () => {
    const raw = await loadRaw(otherTenant);
    const m = await get<ManagerDashboard>('otherAdmin', '/dashboard/manager');
    expect(m.faturamento).toBeCloseTo(billing(raw, raw.ini, raw.fim), 2);
    expect(m.positivacao).toBe(positivation(raw, raw.ini, raw.fim));
    expect(m.pedidosPendentes).toBe(0);
    const mine = await get<ManagerDashboard>('mgr', '/dashboard/manager');
    expect(m.faturamento).not.toBe(mine.faturamento);
    const unknown = Math.max(...raw.reps.map((r) => r.cod_vendedor)) + 1000;
    await get('otherAdmin', `/dashboard/rep?codVendedor=${unknown}`, 404);
  });
});
