// The ERP's fiscal data through the contract (issue 52, part 1): the views over the tiny
// fixture on the run's ERP profile (the pg-odoo project runs this file on 'odoo') and encoding
// (LATIN1 unless the encoding matrix says otherwise); an ERP without the optional tables; and
// `campo provision --check` reporting fiscal data Campo must not apply, without failing.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { provisionedErp, TEST_ERP_PROFILE } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { FISCAL_BY_LINE } from '../erp-fixture/fiscal.ts';
import { checkProvisioning } from './check.ts';

const FISCAL_TABLES = ['produtos_fiscal', 'corrent_fiscal', 'regras_fiscais'];

const rows = async <T extends pg.QueryResultRow>(pool: pg.Pool, sql: string, params: unknown[] = []) =>
  (await pool.query<T>(sql, params)).rows;

/** The warnings of `campo provision --check` about fiscal data. */
async function fiscalWarnings(pool: pg.Pool): Promise<{ fit: boolean; warnings: string[] }> {
  const report = await checkProvisioning(pool, { profile: TEST_ERP_PROFILE });
  return {
    fit: report.fit,
    warnings: report.warnings.map((w) => w.message).filter((m) => /fiscal|fiscais/.test(m)),
  };
}

describe(`the fiscal views on the ${TEST_ERP_PROFILE} ERP`, () => {
  const db = useTestDatabase();

  beforeAll(async () => {
    await provisionedErp(db.pool);
  });

  it('give every product its NCM and CEST as digits, its origin and IPI rate', async () => {
    const [all] = await rows<{ produtos: number; fiscais: number; ncm8: number }>(
      db.pool,
      `select (select count(*)::int from app.vw_produtos) as produtos,
              count(*)::int as fiscais, count(*) filter (where ncm ~ '^[0-9]{8}$')::int as ncm8
         from app.vw_produtos_fiscal`,
    );
    expect(all?.fiscais).toBe(all?.produtos);
    expect(all?.ncm8).toBe(all?.fiscais);
    // Each product has its line's data (erp-fixture/fiscal.ts), the line read back from its
    // description, the longest line name it starts with.
    const lines = Object.keys(FISCAL_BY_LINE).sort((a, b) => b.length - a.length);
    const products = await rows<{ descricao: string; ncm: string; cest: string | null; origem: number; ipi: number }>(
      db.pool,
      `select p.descricao, f.ncm, f.cest, f.origem, f.perc_ipi::float as ipi
         from app.vw_produtos_fiscal f
         join app.vw_produtos p on p.id_empresa = f.id_empresa and p.id_produto = f.id_produto`,
    );
    for (const p of products) {
      const line = lines.find((l) => p.descricao.startsWith(`${l} `));
      expect(line, p.descricao).toBeDefined();
      const want = FISCAL_BY_LINE[line ?? ''];
      expect({ ncm: p.ncm, cest: p.cest, origem: p.origem, ipi: p.ipi }, p.descricao).toEqual({
        ncm: want?.ncm,
        cest: want?.cest,
        origem: want?.origem,
        ipi: want?.ipi,
      });
    }
    const water = products.find((p) => p.descricao.startsWith('Água Mineral '));
    if (water) expect(water).toMatchObject({ ncm: '22011000', cest: '0300500' });
  });

  it('give every client its regime: individuals are no contributors, some buy under Simples', async () => {
    const regimes = await rows<{ regime: string; tipo_pessoa: string; n: number; consumidor_final: boolean }>(
      db.pool,
      `select f.regime, c.tipo_pessoa, f.consumidor_final, count(*)::int as n
         from app.vw_clientes_fiscal f
         join app.vw_clientes c on c.id_empresa = f.id_empresa and c.id_cliente = f.id_cliente
        group by 1, 2, 3 order by 1, 2, 3`,
    );
    const clients = await rows<{ n: number }>(db.pool, 'select count(*)::int as n from app.vw_clientes');
    expect(regimes.reduce((sum, r) => sum + r.n, 0)).toBe(clients[0]?.n);
    expect(regimes.filter((r) => r.tipo_pessoa === 'F').map((r) => r.regime)).toEqual(['nao_contribuinte']);
    expect(new Set(regimes.map((r) => r.regime))).toEqual(
      new Set(['contribuinte', 'simples', 'consumidor_final', 'nao_contribuinte']),
    );
    for (const r of regimes) {
      expect(r.consumidor_final, r.regime).toBe(r.regime === 'consumidor_final' || r.regime === 'nao_contribuinte');
    }
  });

  it("hold the fixture's rules: ST on water, candy, shampoo and cleaning into SP and MG, 12 % to MG and RJ", async () => {
    const [sp] = await rows<{ id_empresa: number }>(
      db.pool,
      "select id_empresa from app.vw_empresas where matriz and uf = 'SP' order by id_empresa limit 1",
    );
    const tenant = sp?.id_empresa;
    expect(tenant).toBeDefined();
    const st = await rows(
      db.pool,
      `select ncm, uf_destino, aliq_icms::text, mva::text, aliq_icms_destino::text
         from app.vw_regras_fiscais
        where id_empresa = $1 and uf_origem = 'SP' and icms_st and regime is null
          and ncm in ('2201', '1704', '3305', '3402')
        order by ncm, uf_destino`,
      [tenant],
    );
    expect(st).toEqual([
      { ncm: '1704', uf_destino: 'MG', aliq_icms: '12.00', mva: '37.00', aliq_icms_destino: '18.00' },
      { ncm: '1704', uf_destino: 'SP', aliq_icms: '18.00', mva: '32.00', aliq_icms_destino: '18.00' },
      { ncm: '2201', uf_destino: 'MG', aliq_icms: '12.00', mva: '40.00', aliq_icms_destino: '18.00' },
      { ncm: '2201', uf_destino: 'SP', aliq_icms: '18.00', mva: '40.00', aliq_icms_destino: '18.00' },
      { ncm: '3305', uf_destino: 'MG', aliq_icms: '12.00', mva: '43.00', aliq_icms_destino: '18.00' },
      { ncm: '3305', uf_destino: 'SP', aliq_icms: '18.00', mva: '43.00', aliq_icms_destino: '18.00' },
      { ncm: '3402', uf_destino: 'MG', aliq_icms: '12.00', mva: '41.00', aliq_icms_destino: '18.00' },
      { ncm: '3402', uf_destino: 'SP', aliq_icms: '18.00', mva: '41.00', aliq_icms_destino: '18.00' },
    ]);
    // A final consumer pays no ST: its rule for the same NCM and states names its regime.
    const finalConsumer = await rows(
      db.pool,
      `select regime, icms_st from app.vw_regras_fiscais
        where id_empresa = $1 and ncm = '2201' and uf_destino = 'MG' and regime is not null order by regime`,
      [tenant],
    );
    expect(finalConsumer).toEqual([
      { regime: 'consumidor_final', icms_st: false },
      { regime: 'nao_contribuinte', icms_st: false },
    ]);
    const defaults = await rows(
      db.pool,
      `select uf_destino, aliq_icms::text, perc_fcp::text, icms_st from app.vw_regras_fiscais
        where id_empresa = $1 and ncm is null and regime is null order by uf_destino`,
      [tenant],
    );
    expect(defaults).toEqual([
      { uf_destino: 'MG', aliq_icms: '12.00', perc_fcp: '0.00', icms_st: false },
      { uf_destino: 'PR', aliq_icms: '12.00', perc_fcp: '0.00', icms_st: false },
      { uf_destino: 'RJ', aliq_icms: '12.00', perc_fcp: '2.00', icms_st: false },
      { uf_destino: 'SP', aliq_icms: '18.00', perc_fcp: '0.00', icms_st: false },
    ]);
    // The SP company sells to MG and RJ clients, some under Simples, some no contributors.
    const buyers = await rows<{ uf: string; regime: string }>(
      db.pool,
      `select distinct c.uf, f.regime from app.vw_clientes c
         join app.vw_clientes_fiscal f on f.id_empresa = c.id_empresa and f.id_cliente = c.id_cliente
        where c.id_empresa = $1`,
      [tenant],
    );
    for (const uf of ['SP', 'MG', 'RJ']) expect(buyers.some((b) => b.uf === uf)).toBe(true);
    expect(buyers.some((b) => b.regime === 'simples')).toBe(true);
    expect(buyers.some((b) => b.regime === 'nao_contribuinte')).toBe(true);
  });

  it('date the rules on the as-of day, whatever the zone of the session', async () => {
    const dates = async (zone: string) => {
      const client = await db.pool.connect();
      try {
        await client.query(`set time zone '${zone}'`);
        return (await client.query('select distinct atualizado_em::text as t from app.vw_regras_fiscais')).rows;
      } finally {
        await client.query('reset time zone');
        client.release();
      }
    };
    const here = await dates('America/Sao_Paulo');
    expect(here).toHaveLength(1);
    expect(here[0]?.t).toMatch(/ 09:00:00$/);
    expect(await dates('Asia/Tokyo')).toEqual(here);
  });

  it('pass `campo provision --check` with no fiscal warning, and report each kind of bad fiscal data', async () => {
    const clean = await fiscalWarnings(db.pool);
    expect(clean).toEqual({ fit: true, warnings: [] });

    const odoo = TEST_ERP_PROFILE === 'odoo';
    const [table, id, fcp, mva, regime, cols] = odoo
      ? [
          'x_campo_regra_fiscal',
          'id',
          'fcp_percent',
          'mva_percent',
          'wholesale',
          'company_id, ncm, state_from_id, state_to_id, regime, icms_percent',
        ]
      : [
          'regras_fiscais',
          'id_regra',
          'perc_fcp',
          'mva',
          'X',
          'id_empresa, ncm, uf_origem, uf_destino, regime, aliq_icms',
        ];
    const [products, product, ipi] = odoo
      ? ['x_campo_produto_fiscal', 'product_tmpl_id', 'ipi_percent']
      : ['produtos_fiscal', 'id_produto', 'perc_ipi'];
    const ids = (await rows<{ id: number }>(db.pool, `select ${id} as id from ${table} order by ${id} limit 3`)).map(
      (r) => r.id,
    );
    const [first] = await rows<{ id: number; ipi: string }>(
      db.pool,
      `select ${product} as id, ${ipi}::text as ipi from ${products} order by ${product} limit 1`,
    );
    await db.pool.query(`update ${table} set ${fcp} = -2 where ${id} = $1`, [ids[0]]);
    await db.pool.query(`update ${table} set ${mva} = 10000 where ${id} = $1`, [ids[1]]);
    await db.pool.query(`update ${table} set regime = $2 where ${id} = $1`, [ids[2], regime]);
    await db.pool.query(`insert into ${table} (${id}, ${cols}) select 9001, ${cols} from ${table} where ${id} = $1`, [
      ids[1],
    ]);
    await db.pool.query(`update ${products} set ${ipi} = -5 where ${product} = $1`, [first?.id]);
    try {
      const bad = await fiscalWarnings(db.pool);
      expect(bad.fit).toBe(true);
      expect(bad.warnings).toEqual([
        `vw_regras_fiscais: 1 rule has a negative rate (id_regra ${ids[0]}); fix it in the ERP`,
        `vw_regras_fiscais: 1 rule has an MVA over 1,000 % (id_regra ${ids[1]}); fix it in the ERP`,
        `vw_regras_fiscais: 1 rule has a regime other than contribuinte, simples, consumidor_final, nao_contribuinte (it matches no client) (id_regra ${ids[2]}); fix it in the ERP`,
        `vw_produtos_fiscal: 1 product has an IPI rate below 0 or over 100 % (id_produto ${first?.id}); fix it in the ERP`,
        expect.stringMatching(
          new RegExp(
            `^vw_regras_fiscais: 1 NCM has two or more rules for the same states and regime, and Campo cannot tell which applies: tenant \\d+ NCM any SP->\\w\\w regime any \\(id_regra ${ids[1]}, 9001\\)$`,
          ),
        ),
      ]);
    } finally {
      await db.pool.query(`delete from ${table} where ${id} = 9001`);
      await db.pool.query(`update ${table} set ${fcp} = 0, ${mva} = null, regime = null where ${id} = any($1)`, [ids]);
      await db.pool.query(`update ${products} set ${ipi} = $2 where ${product} = $1`, [first?.id, first?.ipi]);
    }
    expect(await fiscalWarnings(db.pool)).toEqual({ fit: true, warnings: [] });
  });
});

describe(`an ERP without fiscal data (${TEST_ERP_PROFILE})`, () => {
  const db = useTestDatabase();

  beforeAll(async () => {
    await provisionedErp(db.pool, { without: FISCAL_TABLES });
  });

  it('provisions all the same: the fiscal views answer no rows, and the check stays quiet', async () => {
    for (const view of ['vw_produtos_fiscal', 'vw_clientes_fiscal', 'vw_regras_fiscais']) {
      expect(await rows(db.pool, `select * from app.${view}`), view).toEqual([]);
    }
    expect((await rows(db.pool, 'select count(*)::int as n from app.vw_produtos'))[0]).not.toEqual({ n: 0 });
    expect(await fiscalWarnings(db.pool)).toEqual({ fit: true, warnings: [] });
  });
});
