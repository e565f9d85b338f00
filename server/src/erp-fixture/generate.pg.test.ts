import { isValidCnpj, isValidCpf } from '@campo/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase, useTestDatabase } from '../../../test/support/pg.ts';
import { FIXTURE_MARKER } from './database.ts';
import { createErpFixture, FixtureError, type FixtureSummary } from './generate.ts';
import { SCALES } from './scales.ts';
import { createErpSchema } from './schema.ts';

const db = useTestDatabase();
const AS_OF = new Date('2025-06-15');
const tiny = SCALES.tiny;

async function rows<T extends pg.QueryResultRow>(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

async function scalar<T>(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await rows<{ v: T }>(pool, sql, params);
  return row?.v as T;
}

/** A fresh database of its own, for the cases that need more than the file's one. */
function extraDatabase(encoding = 'LATIN1') {
  const handle = { name: '', pool: undefined as unknown as pg.Pool };
  beforeAll(async () => {
    const created = await createDatabase({ encoding });
    handle.name = created.name;
    handle.pool = new pg.Pool({ connectionString: created.url, max: 3 });
  });
  afterAll(async () => {
    await handle.pool?.end();
    if (handle.name) await dropDatabase(handle.name);
  });
  return handle;
}

/** Digest of a table's rows in key order: equal digests, equal data. */
async function digest(pool: pg.Pool, table: string, orderBy: string): Promise<string> {
  return scalar(pool, `select md5(string_agg(t::text, '|' order by ${orderBy})) as v from ${table} t`);
}

const DIGESTS = [
  ['empresas', 'id_empresa'],
  ['vendedores', 'id_empresa, cod_vendedor'],
  ['produtos', 'id_produto'],
  ['pautas_precos', 'id_empresa, id_pauta, id_produto'],
  ['corrent', 'id_corrent'],
  ['pedidos_venda', 'id_pedido'],
  ['pedidos_venda_itens', 'id_pedido, seq'],
  ['notas_fiscais_itens', 'id_nota, seq'],
  ['titulos_receber', 'id_titulo'],
] as const;

async function digests(pool: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, order] of DIGESTS) out[table] = await digest(pool, table, order);
  return out;
}

describe('createErpFixture, tiny', () => {
  let summary: FixtureSummary;
  const phases = new Set<string>();

  beforeAll(async () => {
    summary = await createErpFixture(db.pool, {
      scale: 'tiny',
      asOf: AS_OF,
      onProgress: (p) => phases.add(p.phase),
    });
  });

  it('reports what it wrote, and every table has rows', async () => {
    expect(summary.scale).toBe('tiny');
    expect(summary.seed).toBe(1);
    expect(summary.asOf).toBe('2025-06-15');
    expect(summary.ms).toBeLessThan(2000);
    expect([...phases]).toEqual(['schema', 'companies', 'products', 'clients', 'orders', 'indexes', 'analyze']);
    for (const [table, count] of Object.entries(summary.counts)) {
      expect(count, table).toBeGreaterThan(0);
      expect(await scalar<number>(db.pool, `select count(*)::int as v from ${table}`), table).toBe(count);
    }
    expect(Object.keys(summary.counts)).toHaveLength(22);
  });

  it('marks the tables as a fixture and restores every foreign key and index', async () => {
    expect(await scalar(db.pool, "select obj_description('empresas'::regclass, 'pg_class') as v")).toBe(FIXTURE_MARKER);
    const fresh = await createDatabase();
    const pool = new pg.Pool({ connectionString: fresh.url, max: 1 });
    try {
      await createErpSchema(pool);
      const shape = `select string_agg(x, ',' order by x) as v from (
          select conrelid::regclass || ':' || pg_get_constraintdef(oid) as x from pg_constraint
           where connamespace = 'public'::regnamespace
          union all
          select indexdef from pg_indexes where schemaname = 'public') s`;
      const expected = await scalar<string>(pool, shape);
      expect(expected).toContain('FOREIGN KEY (id_pedido) REFERENCES pedidos_venda(id_pedido)');
      expect(expected).toContain('pedidos_venda_vendedor_emissao_idx');
      expect(await scalar<string>(db.pool, shape)).toBe(expected);
    } finally {
      await pool.end();
      await dropDatabase(fresh.name);
    }
  });

  it('has two tenants, each with a branch, supervisors and representatives as the scale says', async () => {
    const tenants = await rows<{ id_empresa: number; branches: number; supervisors: number; reps: number }>(
      db.pool,
      `select e.id_empresa,
              (select count(*)::int from empresas b where b.id_matriz = e.id_empresa) as branches,
              (select count(*)::int from supervisores s where s.id_empresa = e.id_empresa) as supervisors,
              (select count(*)::int from vendedores v where v.id_empresa = e.id_empresa and v.ativo = 'S') as reps
         from empresas e where e.id_matriz is null order by 1`,
    );
    expect(tenants).toEqual(
      [1, 2].map((id) => ({
        id_empresa: id,
        branches: 1,
        supervisors: tiny.supervisorsPerTenant,
        reps: tiny.supervisorsPerTenant * tiny.repsPerSupervisor,
      })),
    );
    const portfolios = await rows<{ n: number }>(
      db.pool,
      "select count(*)::int as n from corrent where tipo = 'C' group by id_empresa, cod_vendedor",
    );
    expect(portfolios.map((p) => p.n)).toEqual(Array(8).fill(tiny.clientsPerRep));
    expect(await scalar(db.pool, "select count(*)::int as v from corrent where tipo = 'F'")).toBe(
      2 * tiny.suppliersPerTenant,
    );
  });

  it('gives representatives ceilings (some unset), category ceilings and commission rates', async () => {
    const reps = await rows<{ perc_desc_max: string | null; perc_comissao: string; perc_comissao_flex: string }>(
      db.pool,
      'select perc_desc_max, perc_comissao, perc_comissao_flex from vendedores',
    );
    for (const r of reps) {
      expect(Number(r.perc_comissao)).toBeGreaterThanOrEqual(2);
      expect(Number(r.perc_comissao)).toBeLessThanOrEqual(5);
      expect(Number(r.perc_comissao_flex)).toBeGreaterThanOrEqual(10);
      expect(Number(r.perc_comissao_flex)).toBeLessThanOrEqual(40);
    }
    expect(reps.some((r) => r.perc_desc_max === null)).toBe(true);
    expect(reps.some((r) => r.perc_desc_max !== null)).toBe(true);
    const orphanCategories = await scalar<number>(
      db.pool,
      `select count(*)::int as v from vendedores_desc_categoria d
        where not exists (select 1 from produtos p where p.id_empresa = d.id_empresa and p.categoria = d.categoria)`,
    );
    expect(orphanCategories).toBe(0);
  });

  it('writes a valid CNPJ or CPF for every client and supplier, and well-formed contacts', async () => {
    const people = await rows<{
      tipo_pessoa: string;
      cnpj_cpf: string;
      cep: string;
      uf: string;
      telefone: string | null;
      email: string | null;
    }>(db.pool, 'select tipo_pessoa, cnpj_cpf, cep, uf, telefone, email from corrent');
    const ufs = new Set('AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' '));
    for (const p of people) {
      expect(p.tipo_pessoa === 'J' ? isValidCnpj(p.cnpj_cpf) : isValidCpf(p.cnpj_cpf), p.cnpj_cpf).toBe(true);
      expect(p.cnpj_cpf).toHaveLength(p.tipo_pessoa === 'J' ? 14 : 11);
      expect(p.cep).toMatch(/^\d{8}$/);
      expect(ufs.has(p.uf), p.uf).toBe(true);
      if (p.telefone) expect(p.telefone).toMatch(/^\(\d{2}\) 9?\d{4}-\d{4}$/);
      if (p.email) expect(p.email).toMatch(/^[a-z0-9.]+@[a-z0-9.]+\.[a-z]{2,}$/);
    }
    expect(people.some((p) => p.tipo_pessoa === 'F')).toBe(true);
    expect(people.some((p) => p.tipo_pessoa === 'J')).toBe(true);
    for (const { cnpj } of await rows<{ cnpj: string }>(db.pool, 'select cnpj from empresas')) {
      expect(isValidCnpj(cnpj), cnpj).toBe(true);
    }
  });

  it('stores accented names as single LATIN1 bytes', async () => {
    const [tenant] = await rows<{ razao_social: string; bytes: number; chars: number; hex: string }>(
      db.pool,
      `select razao_social, octet_length(razao_social) as bytes, char_length(razao_social) as chars,
              encode(convert_to(razao_social, 'LATIN1'), 'hex') as hex
         from empresas where id_empresa = 1`,
    );
    expect(tenant?.razao_social).toBe('Distribuidora Irmãos Gonçalves Ltda');
    expect(tenant?.bytes).toBe(tenant?.chars);
    expect(tenant?.hex).toContain('e3'); // ã
    expect(tenant?.hex).toContain('e7'); // ç
    const accented = await scalar<number>(
      db.pool,
      "select count(*)::int as v from corrent where razao_social || nome_fantasia || cidade ~ '[^ -~]'",
    );
    expect(accented).toBeGreaterThan(10);
    const accentedProducts = await scalar<number>(
      db.pool,
      "select count(*)::int as v from produtos where descricao ~ '[^ -~]'",
    );
    expect(accentedProducts).toBeGreaterThan(5);
  });

  it('prices every active product on every pauta of its tenant', async () => {
    const missing = await scalar<number>(
      db.pool,
      `select count(*)::int as v from produtos p join pautas t on t.id_empresa = p.id_empresa
        where p.ativo = 'S'
          and not exists (select 1 from pautas_precos pp
                           where pp.id_empresa = t.id_empresa and pp.id_pauta = t.id_pauta and pp.id_produto = p.id_produto)`,
    );
    expect(missing).toBe(0);
    expect(await scalar(db.pool, 'select count(*)::int as v from pautas')).toBe(2 * tiny.pautasPerTenant);
    expect(await scalar(db.pool, "select count(*)::int as v from produtos where ativo = 'S'")).toBeGreaterThan(100);
    expect(await scalar(db.pool, "select count(*)::int as v from produtos where ativo = 'N'")).toBeGreaterThan(0);
    const shapes = await rows<{ unidade: string; categoria: string; imagem: string | null; cod_produto: string }>(
      db.pool,
      'select unidade, categoria, imagem, cod_produto from produtos',
    );
    for (const p of shapes) {
      expect(['UN', 'CX', 'FD', 'KG', 'L']).toContain(p.unidade);
      expect(p.cod_produto.startsWith(p.categoria)).toBe(true);
      if (p.imagem) expect(p.imagem).toBe(`produtos/${p.cod_produto}.jpg`);
    }
    // The lists differ from each other by a few percent.
    const spread = await scalar<string>(
      db.pool,
      `select avg(b.preco / a.preco)::numeric(6, 4) as v from pautas_precos a
         join pautas_precos b on b.id_produto = a.id_produto and b.id_pauta = 2 where a.id_pauta = 1`,
    );
    expect(Number(spread)).toBeGreaterThan(0.9);
    expect(Number(spread)).toBeLessThan(0.99);
  });

  it('keeps dt_ultima_compra equal to the latest non-cancelled order of each client', async () => {
    const mismatches = await scalar<number>(
      db.pool,
      `select count(*)::int as v from corrent c
         left join (select id_corrent, max(dt_emissao)::date as last from pedidos_venda
                     where situacao <> 'C' group by id_corrent) o on o.id_corrent = c.id_corrent
        where c.tipo = 'C' and c.dt_ultima_compra is distinct from o.last`,
    );
    expect(mismatches).toBe(0);
    const activity = await rows<{ never: number; inactive: number; active: number }>(
      db.pool,
      `select count(*) filter (where dt_ultima_compra is null)::int as never,
              count(*) filter (where dt_ultima_compra < date '2025-06-15' - 30)::int as inactive,
              count(*) filter (where dt_ultima_compra >= date '2025-06-15' - 30)::int as active
         from corrent where tipo = 'C'`,
    );
    expect(activity[0]?.never).toBeGreaterThan(0);
    expect(activity[0]?.inactive).toBeGreaterThan(0);
    expect(activity[0]?.active).toBeGreaterThan(activity[0]?.inactive ?? 0);
    expect(await scalar(db.pool, "select count(*)::int as v from corrent where situacao = 'B'")).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('writes an order history up to the as-of date, priced from the pauta of each client', async () => {
    const span = await rows<{ first: string; last: string }>(
      db.pool,
      "select to_char(min(dt_emissao), 'YYYY-MM-DD') as first, to_char(max(dt_emissao), 'YYYY-MM-DD') as last from pedidos_venda",
    );
    expect(span[0]?.last).toMatch(/^2025-06-1[45]$/);
    // 120 days of history end on 2025-06-15
    expect(span[0]?.first ?? '').toMatch(/^2025-02-1[5-9]$/);
    const statuses = await rows<{ situacao: string; recent: number; old: number }>(
      db.pool,
      `select situacao, count(*) filter (where dt_emissao >= date '2025-06-13')::int as recent,
              count(*) filter (where dt_emissao < date '2025-06-13')::int as old
         from pedidos_venda p
         -- an older order is still open only while partly invoiced
        where not exists (select 1 from notas_fiscais n where n.id_pedido = p.id_pedido and p.situacao = 'A')
        group by situacao order by situacao`,
    );
    const by = Object.fromEntries(statuses.map((s) => [s.situacao, s]));
    expect(by.A?.recent).toBeGreaterThan(0);
    expect(by.A?.old).toBe(0);
    expect(by.F?.old).toBeGreaterThan(by.C?.old ?? 0);
    expect(by.C?.old).toBeGreaterThan(0);

    const wrong = await rows<{ prices: number; totals: number; lines: number; pauta: number; ceilings: number }>(
      db.pool,
      `select count(*) filter (where pp.preco is distinct from i.preco_tabela)::int as prices,
              count(*) filter (where i.valor_total <> round(i.quantidade * i.preco_unitario, 2))::int as lines,
              count(*) filter (where p.id_pauta is distinct from c.id_pauta)::int as pauta,
              count(*) filter (where i.perc_desconto > coalesce(d.perc_desc_max, v.perc_desc_max, 5))::int as ceilings,
              (select count(*)::int from pedidos_venda o
                where o.valor_total <> (select sum(x.valor_total) from pedidos_venda_itens x where x.id_pedido = o.id_pedido)) as totals
         from pedidos_venda_itens i
         join pedidos_venda p on p.id_pedido = i.id_pedido
         join corrent c on c.id_corrent = p.id_corrent
         join produtos pr on pr.id_produto = i.id_produto
         join vendedores v on v.id_empresa = p.id_empresa and v.cod_vendedor = p.cod_vendedor
         left join vendedores_desc_categoria d
                on d.id_empresa = v.id_empresa and d.cod_vendedor = v.cod_vendedor and d.categoria = pr.categoria
         left join pautas_precos pp on pp.id_empresa = p.id_empresa and pp.id_pauta = p.id_pauta and pp.id_produto = i.id_produto`,
    );
    expect(wrong[0]).toEqual({ prices: 0, totals: 0, lines: 0, pauta: 0, ceilings: 0 });
    const discounted = await scalar<number>(
      db.pool,
      'select count(*)::int as v from pedidos_venda_itens where perc_desconto > 0',
    );
    const aboveList = await scalar<number>(
      db.pool,
      'select count(*)::int as v from pedidos_venda_itens where preco_unitario > preco_tabela',
    );
    expect(discounted).toBeGreaterThan(0);
    expect(aboveList).toBeGreaterThan(0);
  });

  it('invoices each invoiced order in full, some over two invoices, in installments that add up', async () => {
    const check = await rows<{
      short: number;
      stray: number;
      installments: number;
      bad_sums: number;
      bad_lines: number;
      over_invoiced: number;
    }>(
      db.pool,
      `with billed as (
         select p.id_pedido, p.situacao, p.valor_total,
                coalesce(sum(n.valor_total) filter (where n.cancelada = 'N'), 0) as invoiced
           from pedidos_venda p left join notas_fiscais n on n.id_pedido = p.id_pedido
          group by p.id_pedido)
       select
         (select count(*)::int from billed where situacao = 'F' and invoiced <> valor_total) as short,
         (select count(*)::int from billed where situacao = 'C' and invoiced > 0
             or situacao = 'A' and invoiced >= valor_total) as stray,
         (select count(*)::int from (select id_nota, count(*) as k from titulos_receber group by id_nota) t
            where k not between 1 and 3) as installments,
         (select count(*)::int from notas_fiscais n where n.cancelada = 'N'
            and n.valor_total <> (select sum(valor) from titulos_receber t where t.id_nota = n.id_nota)) as bad_sums,
         (select count(*)::int from notas_fiscais n
            where n.valor_total <> (select sum(valor_total) from notas_fiscais_itens i where i.id_nota = n.id_nota)) as bad_lines,
         (select count(*)::int from (
            select n.id_pedido, i.id_produto, sum(i.quantidade) as q
              from notas_fiscais n join notas_fiscais_itens i on i.id_nota = n.id_nota
             where n.cancelada = 'N' group by 1, 2) f
            join pedidos_venda_itens o on o.id_pedido = f.id_pedido and o.id_produto = f.id_produto
           where f.q > o.quantidade) as over_invoiced`,
    );
    expect(check[0]).toEqual({ short: 0, stray: 0, installments: 0, bad_sums: 0, bad_lines: 0, over_invoiced: 0 });
    const kinds = await rows<{ split: number; reissued: number; partly_open: number }>(
      db.pool,
      `with per as (
         select p.id_pedido, p.situacao,
                count(*) filter (where n.cancelada = 'N') as good, count(*) filter (where n.cancelada = 'S') as bad
           from pedidos_venda p join notas_fiscais n on n.id_pedido = p.id_pedido group by p.id_pedido)
       select count(*) filter (where good = 2)::int as split,
              count(*) filter (where good = 1 and bad = 1 and situacao = 'F')::int as reissued,
              count(*) filter (where situacao = 'A')::int as partly_open
         from per`,
    );
    expect(kinds[0]?.split).toBeGreaterThan(0);
    expect(kinds[0]?.reissued).toBeGreaterThan(0);
    expect(kinds[0]?.partly_open).toBeGreaterThan(0);
  });

  it('leaves most titles paid, some clients a little overdue and a few more than 30 days overdue', async () => {
    const titles = await rows<{ id_empresa: number; paid: number; open: number; late: number; long_overdue: number }>(
      db.pool,
      `select id_empresa,
              count(*) filter (where valor_pago = valor)::int as paid,
              count(*) filter (where valor_pago < valor and dt_vencimento >= date '2025-06-15')::int as open,
              count(distinct id_corrent) filter (where valor_pago < valor
                 and dt_vencimento between date '2025-06-15' - 30 and date '2025-06-14')::int as late,
              count(distinct id_corrent) filter (where valor_pago < valor
                 and dt_vencimento < date '2025-06-15' - 30)::int as long_overdue
         from titulos_receber group by id_empresa order by id_empresa`,
    );
    expect(titles).toHaveLength(2);
    for (const t of titles) {
      expect(t.paid).toBeGreaterThan(t.open);
      expect(t.open).toBeGreaterThan(0);
      expect(t.late).toBeGreaterThan(0);
      expect(t.long_overdue).toBeGreaterThanOrEqual(1);
      expect(t.long_overdue).toBeLessThanOrEqual(3);
    }
    const inconsistent = await scalar<number>(
      db.pool,
      `select count(*)::int as v from titulos_receber
        where (valor_pago = valor) <> (dt_pagamento is not null) or dt_pagamento > date '2025-06-15'`,
    );
    expect(inconsistent).toBe(0);
  });

  it('moves the id sequences past the generated ids', async () => {
    for (const [seq, table, column] of [
      ['corrent_id_corrent_seq', 'corrent', 'id_corrent'],
      ['pedidos_venda_id_pedido_seq', 'pedidos_venda', 'id_pedido'],
      ['notas_fiscais_id_nota_seq', 'notas_fiscais', 'id_nota'],
      ['titulos_receber_id_titulo_seq', 'titulos_receber', 'id_titulo'],
    ]) {
      const max = await scalar<number>(db.pool, `select max(${column}) as v from ${table}`);
      expect(await scalar<number>(db.pool, `select nextval('${seq}')::int as v`)).toBe(max + 1);
    }
  });
});

describe('determinism', () => {
  const same = extraDatabase();
  const other = extraDatabase();

  it('gives identical data for the same seed and as-of date, and different data for another seed', async () => {
    await createErpFixture(same.pool, { scale: 'tiny', asOf: AS_OF, seed: 1 });
    await createErpFixture(other.pool, { scale: 'tiny', asOf: AS_OF, seed: 2 });
    const [a, b, c] = await Promise.all([digests(db.pool), digests(same.pool), digests(other.pool)]);
    expect(b).toEqual(a);
    for (const [table] of DIGESTS) expect(c[table], table).not.toBe(a[table]);
  });
});

describe('refusals', () => {
  const ascii = extraDatabase('SQL_ASCII');
  const erp = extraDatabase();
  const fixture = extraDatabase();

  it('refuses a database that is not LATIN1, WIN1252 or UTF8, saying how to create one, and creates nothing', async () => {
    const err = await createErpFixture(ascii.pool, { scale: 'tiny' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FixtureError);
    expect((err as FixtureError).code).toBe('WRONG_ENCODING');
    expect((err as FixtureError).message).toMatch(/encoding SQL_ASCII, .* LATIN1, WIN1252, UTF8/);
    expect((err as FixtureError).message).toContain(
      "CREATE DATABASE erp ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
    );
    expect(await scalar(ascii.pool, "select count(*)::int as v from pg_tables where schemaname = 'public'")).toBe(0);
  });

  it('refuses ERP tables it did not create, with or without replace, and drops nothing', async () => {
    await createErpSchema(erp.pool);
    await erp.pool.query(
      `insert into empresas (id_empresa, razao_social, nome_fantasia, cnpj, inscricao_estadual, endereco, cidade, uf, cep)
       values (1, 'ERP de verdade', 'Real', '11222333000181', 'ISENTO', 'Rua A, 1', 'Recife', 'PE', '50000000')`,
    );
    const plain = await createErpFixture(erp.pool, { scale: 'tiny' }).catch((e: unknown) => e);
    expect((plain as FixtureError).code).toBe('TABLES_EXIST');
    expect((plain as FixtureError).message).toMatch(
      /already has ERP tables \(condicoes_pagamento, corrent, corrent_condicoes, corrent_fiscal and 18 more\)/,
    );
    const replace = await createErpFixture(erp.pool, { scale: 'tiny', replace: true }).catch((e: unknown) => e);
    expect(replace).toBeInstanceOf(FixtureError);
    expect((replace as FixtureError).code).toBe('NOT_A_FIXTURE');
    expect((replace as FixtureError).message).toMatch(/Nothing was dropped/);
    expect(await scalar(erp.pool, 'select razao_social as v from empresas')).toBe('ERP de verdade');
  });

  it('replaces a previous fixture only when asked, and not while other objects depend on it', async () => {
    const first = await createErpFixture(fixture.pool, { scale: 'tiny', asOf: AS_OF, seed: 2 });
    const again = await createErpFixture(fixture.pool, { scale: 'tiny' }).catch((e: unknown) => e);
    expect((again as FixtureError).code).toBe('TABLES_EXIST');

    await fixture.pool.query('create view client_names as select razao_social from corrent');
    const blocked = await createErpFixture(fixture.pool, { scale: 'tiny', replace: true }).catch((e: unknown) => e);
    expect((blocked as FixtureError).code).toBe('DEPENDENT_OBJECTS');
    expect((blocked as FixtureError).message).toMatch(/client_names/);
    expect(await scalar(fixture.pool, 'select count(*)::int as v from pedidos_venda')).toBe(first.counts.pedidos_venda);
    await fixture.pool.query('drop view client_names');

    const replaced = await createErpFixture(fixture.pool, { scale: 'tiny', asOf: AS_OF, seed: 1, replace: true });
    expect(replaced.counts).not.toEqual(first.counts);
    expect(await digests(fixture.pool)).toEqual(await digests(db.pool));
  });

  const broken = extraDatabase();

  it('closes its COPY connections when a load fails half-way, and the run can then be replaced', async () => {
    const failure = new Error('stop in the middle of the orders');
    const err = await createErpFixture(broken.pool, {
      scale: 'tiny',
      asOf: AS_OF,
      onProgress: (p) => {
        if (p.phase === 'orders' && p.done > 0) throw failure;
      },
    }).catch((e: unknown) => e);
    expect(err).toBe(failure);
    const copies = async () =>
      scalar<number>(
        broken.pool,
        "select count(*)::int as v from pg_stat_activity where datname = current_database() and query ilike 'copy %'",
      );
    for (let i = 0; i < 50 && (await copies()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await copies()).toBe(0);
    expect(await scalar(broken.pool, 'select count(*)::int as v from pedidos_venda')).toBe(0);

    const again = await createErpFixture(broken.pool, { scale: 'tiny', asOf: AS_OF, replace: true });
    expect(again.counts.pedidos_venda).toBeGreaterThan(0);
  });
});
