// Provisioning and the two triggers on every PostgreSQL major Campo supports: the ERP runs
// old ones, and CREATE OR REPLACE TRIGGER, gen_random_uuid() and friends are not there.
import { describe, expect, it } from 'vitest';
import { TEST_ENCODING } from '../../../test/support/pg.ts';
import {
  collectLog,
  expectedSchema,
  insertPendingOrder,
  orderScenario,
  useErpDatabase,
} from '../../../test/support/provisioning.ts';
import { catalogSnapshot } from './catalog.ts';
import { provision } from './provision.ts';

describe.each([12, 15, 18] as const)('on PostgreSQL %i', (major) => {
  const db = useErpDatabase(major);

  it('provisions every table, view and trigger, and a second run changes nothing', async () => {
    const expected = await expectedSchema();
    const first = await provision(db.pool);
    expect(first).toMatchObject({ upToDate: false, mode: 'fresh', schemaVersion: expected.version });
    expect(first.counts).toMatchObject({ tables: expected.tables, views: expected.views, triggers: expected.triggers });
    const version = await db.pool.query<{ v: number }>(
      "select current_setting('server_version_num')::int / 10000 as v",
    );
    expect(version.rows[0]?.v).toBe(major);

    const before = await catalogSnapshot(db.pool);
    const applied = await db.pool.query('select version, name, checksum, kind, applied_at from app.schema_migrations');
    const { lines, log } = collectLog();
    const second = await provision(db.pool, { log });
    expect(second.upToDate).toBe(true);
    expect(second.actions).toEqual([]);
    expect(second.counts).toEqual(first.counts);
    expect(lines).toEqual([]);
    expect(await catalogSnapshot(db.pool)).toEqual(before);
    expect(
      (await db.pool.query('select version, name, checksum, kind, applied_at from app.schema_migrations')).rows,
    ).toEqual(applied.rows);
  });

  it('approving an order (situa 1 -> 2) writes it and its items into the ERP and stores erp_id_pedido', async () => {
    const s = await orderScenario(db.pool);
    const id = await insertPendingOrder(db.pool, s, { endEntrega: 'Rua Sao Joao, 1000 - Centro' });
    await db.pool.query('update app.pedidos set situa = 2 where id = $1 and situa = 1', [id]);

    const order = await db.pool.query(
      'select id_empresa, cod_vendedor, num_ped_sar, id_cliente, id_pauta, end_entrega, valor_total, erp_id_pedido, criado_em from app.pedidos where id = $1',
      [id],
    );
    const o = order.rows[0];
    expect(o.erp_id_pedido).not.toBeNull();
    const erp = await db.pool.query(
      `select pv.*, coalesce(e.id_matriz, e.id_empresa) as tenant
         from pedidos_venda pv join empresas e on e.id_empresa = pv.id_empresa where pv.id_pedido = $1`,
      [o.erp_id_pedido],
    );
    const pv = erp.rows[0];
    expect(pv).toMatchObject({
      tenant: o.id_empresa,
      cod_vendedor: o.cod_vendedor,
      id_corrent: o.id_cliente,
      id_pauta: o.id_pauta,
      num_ped_sar: o.num_ped_sar,
      situacao: 'A',
      origem: 'CAMPO',
      end_entrega: 'Rua Sao Joao, 1000 - Centro',
      valor_total: o.valor_total,
    });
    // The next number of the ERP company: no other order of it has a higher one.
    const higher = await db.pool.query(
      'select count(*)::int as n from pedidos_venda where id_empresa = $1 and num_pedido > $2',
      [pv.id_empresa, pv.num_pedido],
    );
    expect(higher.rows[0].n).toBe(0);

    const appItems = await db.pool.query(
      `select seq, id_produto, quantidade, preco_tabela, preco_unitario, perc_desconto, valor_total
         from app.pedido_itens where id_pedido = $1 order by seq`,
      [id],
    );
    const erpItems = await db.pool.query(
      `select seq, id_produto, quantidade, preco_tabela, preco_unitario, perc_desconto, valor_total
         from pedidos_venda_itens where id_pedido = $1 order by seq`,
      [o.erp_id_pedido],
    );
    expect(appItems.rows).toHaveLength(2);
    expect(erpItems.rows).toEqual(appItems.rows);
  });

  it('rolls the approval back when the ERP refuses the order', async () => {
    const s = await orderScenario(db.pool);
    const missing = await db.pool.query<{ id: number }>(
      'select coalesce(max(id_produto), 0) + 1000 as id from produtos',
    );
    const id = await insertPendingOrder(db.pool, s, { extraItem: missing.rows[0]?.id });
    const erpBefore = await db.pool.query('select count(*)::int as n from pedidos_venda');

    await expect(db.pool.query('update app.pedidos set situa = 2 where id = $1 and situa = 1', [id])).rejects.toThrow(
      /pedidos_venda_itens/,
    );

    const after = await db.pool.query('select situa, erp_id_pedido from app.pedidos where id = $1', [id]);
    expect(after.rows[0]).toEqual({ situa: 1, erp_id_pedido: null });
    const erpAfter = await db.pool.query('select count(*)::int as n from pedidos_venda');
    expect(erpAfter.rows[0].n).toBe(erpBefore.rows[0].n);
    const sar = await db.pool.query(
      "select count(*)::int as n from pedidos_venda where origem = 'CAMPO' and num_ped_sar = (select num_ped_sar from app.pedidos where id = $1)",
      [id],
    );
    expect(sar.rows[0].n).toBe(0);
  });

  it('does not replicate a rejection, nor an approved order a second time', async () => {
    const s = await orderScenario(db.pool);
    const rejected = await insertPendingOrder(db.pool, s);
    await db.pool.query("update app.pedidos set situa = 4, motivo_rejeicao = 'preco' where id = $1", [rejected]);
    expect((await db.pool.query('select erp_id_pedido from app.pedidos where id = $1', [rejected])).rows[0]).toEqual({
      erp_id_pedido: null,
    });

    const approved = await insertPendingOrder(db.pool, s);
    await db.pool.query('update app.pedidos set situa = 2 where id = $1', [approved]);
    const count = async () => (await db.pool.query('select count(*)::int as n from pedidos_venda')).rows[0].n as number;
    const n = await count();
    // Back to pending and approved again (a manual correction): the ERP copy exists already.
    await db.pool.query('update app.pedidos set situa = 1 where id = $1', [approved]);
    await db.pool.query('update app.pedidos set situa = 2 where id = $1', [approved]);
    expect(await count()).toBe(n);
  });

  it('turns a new client into an ERP client with every mandatory column filled', async () => {
    const s = await orderScenario(db.pool);
    const { rows } = await db.pool.query(
      `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, cnpj_cpf, cep, endereco,
                                       bairro, cidade, uf, id_pauta)
       values ($1, $2, 'J', 'Mercearia Conceição Ltda', '12.345.678/0001-95', '01310-100', 'Avenida Paulista',
               'Bela Vista', 'São Paulo', 'sp', $3)
       returning id, id_corrent_erp, sincronizado`,
      [s.idEmpresa, s.codVendedor, s.idPauta],
    );
    const novo = rows[0];
    expect(novo.sincronizado).toBe(true);
    expect(novo.id_corrent_erp).toEqual(expect.any(Number));

    const corrent = await db.pool.query('select * from corrent where id_corrent = $1', [novo.id_corrent_erp]);
    const c = corrent.rows[0];
    expect(c).toMatchObject({
      tipo: 'C',
      tipo_pessoa: 'J',
      razao_social: 'Mercearia Conceição Ltda',
      nome_fantasia: 'Mercearia Conceição Ltda',
      cnpj_cpf: '12345678000195',
      inscricao_estadual: 'ISENTO',
      numero: 'S/N',
      cep: '01310100',
      uf: 'SP',
      cidade: 'São Paulo',
      cod_vendedor: s.codVendedor,
      id_pauta: s.idPauta,
      origem: 'CAMPO',
      situacao: 'N',
      ativo: 'S',
    });
    // Every column the ERP declares NOT NULL is filled, whatever the ERP's defaults did.
    const notNull = await db.pool.query<{ name: string }>(
      "select attname as name from pg_attribute where attrelid = 'corrent'::regclass and attnum > 0 and attnotnull and not attisdropped",
    );
    for (const { name } of notNull.rows) expect(c[name], name).not.toBeNull();
  });

  it('cuts text to the ERP column width and strips control characters', async () => {
    const s = await orderScenario(db.pool);
    // WIN1252 has no C1 control characters: its 0x85 is the ellipsis, which the ERP keeps.
    const c1OrEllipsis = TEST_ENCODING === 'WIN1252' ? '…' : '\u0085';
    const longName = `Distribuidora\tde  Alimentos\u0001 Irmãos ${'Silva '.repeat(30)}`;
    const { rows } = await db.pool.query(
      `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, nome_fantasia, cnpj_cpf,
                                       cep, endereco, numero, complemento, bairro, cidade, uf)
       values ($1, $2, 'F', $3, $4, '123.456.789-09', '30130-010', 'Rua da Bahia', '  1234567890123  ', $5,
               'Centro', 'Belo Horizonte', 'MG')
       returning id_corrent_erp`,
      [s.idEmpresa, s.codVendedor, longName, '\u00a0Irmãos\u00a0\u00a0Silva\r\n', `fundos${c1OrEllipsis} loja 2`],
    );
    const c = (
      await db.pool.query(
        'select razao_social, nome_fantasia, numero, complemento, cnpj_cpf, tipo_pessoa from corrent where id_corrent = $1',
        [rows[0].id_corrent_erp],
      )
    ).rows[0];
    const width = async (col: string) =>
      (await db.pool.query<{ n: number }>('select app.largura_coluna_erp($1, $2) as n', ['public.corrent', col]))
        .rows[0]?.n;
    expect(await width('razao_social')).toBe(100);
    // Cut at 100 characters, where the 100th is a space that the final trim removes.
    expect(c.razao_social).toBe(`Distribuidora de Alimentos Irmãos ${'Silva '.repeat(11)}`.trimEnd());
    expect(c.nome_fantasia).toBe('Irmãos Silva');
    expect(c.numero).toBe('1234567890');
    expect(c.complemento).toBe(TEST_ENCODING === 'WIN1252' ? 'fundos… loja 2' : 'fundos loja 2');
    expect(c).toMatchObject({ cnpj_cpf: '12345678909', tipo_pessoa: 'F' });
  });

  it('refuses a new client whose mandatory ERP fields are empty, and creates nothing', async () => {
    const s = await orderScenario(db.pool);
    const before = (await db.pool.query('select count(*)::int as n from corrent')).rows[0].n;
    await expect(
      db.pool.query(
        `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, cnpj_cpf, cep, endereco,
                                         bairro, cidade, uf)
         values ($1, $2, 'J', E' \\t ', '11222333000181', '1234', 'Rua A', '', 'Cidade', 'SP')`,
        [s.idEmpresa, s.codVendedor],
      ),
    ).rejects.toThrow(/razao_social, bairro, cep/);
    expect((await db.pool.query('select count(*)::int as n from corrent')).rows[0].n).toBe(before);
    expect(
      (await db.pool.query('select count(*)::int as n from app.clientes_novos where cnpj_cpf = $1', ['11222333000181']))
        .rows[0].n,
    ).toBe(0);
  });
});
