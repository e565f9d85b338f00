// One transliteration for ERP-bound text: the TypeScript side (toErpText, before binding) and
// the SQL side (app.texto_erp, inside the triggers) must agree, and together they must make
// "has no equivalent in encoding LATIN1" (or WIN1252) impossible. Runs on each ERP encoding
// (the encoding projects of vitest.config.ts).
import { toEncoding, toErpText } from '@campo/shared';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { provisionedErp } from './support/erp.ts';
import { TEST_ENCODING, useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();
const NAME = 'Conceição & Filhos — “Ação” 🚚 €';

describe(`${TEST_ENCODING} text bound for the ERP`, () => {
  let rep: { idEmpresa: number; codVendedor: number };
  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    rep = erp.reps[0] as typeof rep;
  });

  it.runIf(TEST_ENCODING !== 'UTF8')('fails in PostgreSQL as it is, which is why it is transliterated', async () => {
    await expect(db.pool.query('select $1::text', [NAME])).rejects.toThrow(new RegExp(TEST_ENCODING));
  });

  it('toErpText agrees with app.texto_erp for any input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 80 }), fc.integer({ min: 1, max: 60 }), async (s, w) => {
        const { rows } = await db.pool.query<{ sql: string; again: string }>(
          'select app.texto_erp($1, $2) as sql, app.texto_erp($3, $2) as again',
          [toEncoding(s, TEST_ENCODING).replaceAll('\u0000', ''), w, toErpText(s, w, TEST_ENCODING)],
        );
        expect(rows[0]?.sql).toBe(toErpText(s, w, TEST_ENCODING));
        expect(rows[0]?.again).toBe(toErpText(s, w, TEST_ENCODING));
      }),
      { numRuns: 300 },
    );
  });

  it('creates the ERP client of a new client named with dashes, curly quotes, emoji and euro', async () => {
    const razao = toErpText(NAME, undefined, TEST_ENCODING);
    expect(razao).toBe(
      {
        LATIN1: 'Conceição & Filhos - "Ação" EUR',
        WIN1252: 'Conceição & Filhos — “Ação” €',
        UTF8: NAME,
      }[TEST_ENCODING],
    );
    const { rows } = await db.pool.query(
      `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, nome_fantasia, cnpj_cpf,
                                       cep, endereco, bairro, cidade, uf)
       values ($1, $2, 'J', $3, $3, '11.222.333/0001-81', '01310-100', 'Avenida Paulista', 'Bela Vista',
               $4, 'SP')
       returning id_corrent_erp, sincronizado`,
      [rep.idEmpresa, rep.codVendedor, razao, toErpText('São Paulo', undefined, TEST_ENCODING)],
    );
    expect(rows[0]).toMatchObject({ sincronizado: true, id_corrent_erp: expect.any(Number) });
    const corrent = await db.pool.query('select razao_social, nome_fantasia from corrent where id_corrent = $1', [
      rows[0].id_corrent_erp,
    ]);
    expect(corrent.rows[0]).toEqual({ razao_social: razao, nome_fantasia: razao });
  });
});
