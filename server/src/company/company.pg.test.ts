// Company settings against a real LATIN1 PostgreSQL: the logo upload with its attack set (type
// by magic bytes, size limit while reading, truncated files, huge dimensions), its removal,
// the daily positivation target and the money rules (credit policy, flex), checked in
// app.config_empresa, in GET /catalog/company and in the devices' company document.
import { type Company, LOGO_MAX_BYTES, type MoneyRules, type Problem, type SyncPull } from '@campo/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gif, HTML, jpeg, png, pngClaiming, SVG, webp } from '../../../test/fixtures/images.ts';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs, type SessionUser } from '../../../test/support/session.ts';

const db = useTestDatabase();

type Api = ReturnType<typeof apiAs>;
type Who = 'rep' | 'supervisor' | 'manager' | 'admin' | 'foreignAdmin';

describe('company settings', () => {
  let t1: number;
  let t2: number;
  let app: ReturnType<typeof testApp>;
  const tokens = {} as Record<Who, string>;
  const as = {} as Record<Who, Api>;

  const putLogo = (who: Who, body: RequestInit['body'], contentType = 'image/png', extra: RequestInit = {}) =>
    app.request('/api/v1/catalog/company/logo', {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': contentType },
      body,
      ...extra,
    });

  const storedLogo = async (idEmpresa: number): Promise<string | null> =>
    (
      await db.pool.query<{ logo: string | null }>('select logo from app.config_empresa where id_empresa = $1', [
        idEmpresa,
      ])
    ).rows[0]?.logo ?? null;

  const problemOf = async (res: Response) => {
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    return (await res.json()) as Problem;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const rep = erp.reps.find((r) => r.idEmpresa === t1);
    if (!rep) throw new Error('the tiny fixture has no representative');
    app = testApp(db.pool);
    const users: Record<Who, Omit<SessionUser, 'login'>> = {
      rep: { role: 'representative', idEmpresa: t1, codVendedor: rep.codVendedor },
      supervisor: { role: 'supervisor', idEmpresa: t1, codSupervisor: rep.codSupervisor },
      manager: { role: 'manager', idEmpresa: t1 },
      admin: { role: 'admin', idEmpresa: t1 },
      foreignAdmin: { role: 'admin', idEmpresa: t2 },
    };
    for (const [who, user] of Object.entries(users) as [Who, Omit<SessionUser, 'login'>][]) {
      tokens[who] = await logInAs(app, db.pool, { ...user, login: `${who.toLowerCase()}@company.test` });
      as[who] = apiAs(app, tokens[who]);
    }
  });

  beforeEach(async () => {
    await db.pool.query('delete from app.config_empresa');
  });

  describe('GET /catalog/company', () => {
    it('answers the head office of the caller’s tenant from the ERP', async () => {
      const { rows } = await db.pool.query(
        'select razao_social, nome_fantasia, cnpj, endereco, cidade, uf, cep from public.empresas where id_empresa = $1',
        [t1],
      );
      for (const who of ['rep', 'supervisor', 'manager'] as const) {
        const res = await as[who]('GET', '/catalog/company');
        expect(res.status).toBe(200);
        const body = (await res.json()) as Company;
        expect(body).toMatchObject({
          idEmpresa: t1,
          name: rows[0].razao_social,
          tradeName: rows[0].nome_fantasia,
          cnpj: rows[0].cnpj,
          address: { street: rows[0].endereco, city: rows[0].cidade, uf: rows[0].uf, cep: rows[0].cep },
          logoBase64: null,
          metaPositivacaoDia: null,
        });
      }
      const foreign = (await (await as.foreignAdmin('GET', '/catalog/company')).json()) as Company;
      expect(foreign.idEmpresa).toBe(t2);
    });
  });

  describe('PUT /catalog/company/logo', () => {
    it('accepts a PNG, a JPEG and a WebP, whatever type they were sent as, and serves them as data URLs', async () => {
      for (const [bytes, mime, sentAs] of [
        [png(3, 2), 'image/png', 'image/png'],
        [jpeg(), 'image/jpeg', 'application/octet-stream'],
        [webp(), 'image/webp', 'image/png'],
      ] as const) {
        const res = await putLogo('manager', bytes, sentAs);
        expect(res.status, mime).toBe(200);
        const expected = `data:${mime};base64,${bytes.toString('base64')}`;
        expect(((await res.json()) as Company).logoBase64).toBe(expected);
        expect(await storedLogo(t1)).toBe(expected);
        const seen = (await (await as.rep('GET', '/catalog/company')).json()) as Company;
        expect(seen.logoBase64).toBe(expected);
        expect(Buffer.from(seen.logoBase64?.split(',')[1] ?? '', 'base64').equals(bytes)).toBe(true);
      }
      expect((await putLogo('admin', png(), 'image/jpeg')).status).toBe(200);
    });

    it('refuses an SVG, an HTML page labelled image/png and a GIF with 415, storing nothing', async () => {
      for (const [bytes, type] of [
        [SVG, 'image/png'],
        [SVG, 'image/svg+xml'],
        [HTML, 'image/png'],
        [gif(), 'image/png'],
        [png(), 'text/html'],
      ] as const) {
        const res = await putLogo('manager', bytes, type);
        expect(res.status, `${type} ${bytes.subarray(0, 6).toString()}`).toBe(415);
        expect((await problemOf(res)).code).toBe('LOGO_TYPE_NOT_SUPPORTED');
      }
      expect(await storedLogo(t1)).toBeNull();
    });

    it('takes exactly 500 KiB and refuses one byte more with 413 and a message in Portuguese', async () => {
      expect((await putLogo('manager', png(1, 1, LOGO_MAX_BYTES))).status).toBe(200);
      await db.pool.query('delete from app.config_empresa');
      const res = await putLogo('manager', png(1, 1, LOGO_MAX_BYTES + 1));
      expect(res.status).toBe(413);
      const problem = await problemOf(res);
      expect(problem.code).toBe('LOGO_TOO_LARGE');
      expect(problem.detail).toMatch(/no máximo 500 KB/);
      expect(await storedLogo(t1)).toBeNull();
    });

    it('stops reading a streamed body as soon as it passes the limit', async () => {
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 50 * 1024 * 1024) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const res = await putLogo('manager', body, 'image/png', { duplex: 'half' } as RequestInit);
      expect(res.status).toBe(413);
      // It did read past the limit (no Content-Length to go by), and then stopped.
      expect(sent).toBeGreaterThan(LOGO_MAX_BYTES);
      expect(sent).toBeLessThan(LOGO_MAX_BYTES + 4 * chunk.length);
    });

    it('refuses at once a body whose Content-Length is over the limit', async () => {
      const res = await app.request('/api/v1/catalog/company/logo', {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${tokens.manager}`,
          'content-type': 'image/png',
          'content-length': String(LOGO_MAX_BYTES + 1),
        },
        body: png(),
      });
      expect(res.status).toBe(413);
    });

    it('refuses a truncated PNG and one claiming 100000 × 100000 pixels with 422', async () => {
      const whole = png(40, 40);
      const cut = await putLogo('manager', whole.subarray(0, whole.length - 30));
      expect(cut.status).toBe(422);
      expect((await problemOf(cut)).code).toBe('LOGO_TRUNCATED');
      const huge = await putLogo('manager', pngClaiming(100_000, 100_000));
      expect(huge.status).toBe(422);
      const problem = await problemOf(huge);
      expect(problem.code).toBe('LOGO_DIMENSIONS_TOO_LARGE');
      expect(problem).toMatchObject({ width: 100_000, height: 100_000 });
      expect(await storedLogo(t1)).toBeNull();
    });

    it('refuses an empty body with 400', async () => {
      const res = await putLogo('manager', new Uint8Array());
      expect(res.status).toBe(400);
      expect((await problemOf(res)).code).toBe('LOGO_EMPTY');
    });

    it('is refused to representatives and supervisors with 403 before the body is looked at', async () => {
      for (const who of ['rep', 'supervisor'] as const) {
        expect((await putLogo(who, png())).status).toBe(403);
        expect((await putLogo(who, png(1, 1, LOGO_MAX_BYTES + 1))).status).toBe(403);
        expect((await as[who]('DELETE', '/catalog/company/logo')).status).toBe(403);
      }
      expect(await storedLogo(t1)).toBeNull();
    });

    it('keeps each tenant’s logo apart', async () => {
      expect((await putLogo('foreignAdmin', jpeg())).status).toBe(200);
      expect(await storedLogo(t1)).toBeNull();
      expect(((await (await as.manager('GET', '/catalog/company')).json()) as Company).logoBase64).toBeNull();
      expect(await storedLogo(t2)).toMatch(/^data:image\/jpeg;base64,/);
    });
  });

  describe('DELETE /catalog/company/logo', () => {
    it('removes the logo (204), and again when there is none', async () => {
      expect((await putLogo('manager', png())).status).toBe(200);
      await db.pool.query('update app.config_empresa set meta_positivacao_dia = 12 where id_empresa = $1', [t1]);
      const res = await as.admin('DELETE', '/catalog/company/logo');
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(await storedLogo(t1)).toBeNull();
      const seen = (await (await as.rep('GET', '/catalog/company')).json()) as Company;
      expect(seen).toMatchObject({ logoBase64: null, metaPositivacaoDia: 12 });
      expect((await as.manager('DELETE', '/catalog/company/logo')).status).toBe(204);
    });
  });

  describe('PUT /dashboard/manager/meta-positivacao-dia', () => {
    it('saves the target, returns it, and GET /catalog/company shows it', async () => {
      for (const [who, value] of [
        ['manager', 25],
        ['admin', 0],
        ['manager', 100_000],
      ] as const) {
        const res = await as[who]('PUT', '/dashboard/manager/meta-positivacao-dia', { metaPositivacaoDia: value });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ metaPositivacaoDia: value });
        const stored = await db.pool.query<{ meta: number }>(
          'select meta_positivacao_dia as meta from app.config_empresa where id_empresa = $1',
          [t1],
        );
        expect(stored.rows[0]?.meta).toBe(value);
        const seen = (await (await as.supervisor('GET', '/catalog/company')).json()) as Company;
        expect(seen.metaPositivacaoDia).toBe(value);
      }
      const foreign = (await (await as.foreignAdmin('GET', '/catalog/company')).json()) as Company;
      expect(foreign.metaPositivacaoDia).toBeNull();
    });

    it('keeps the logo when the target changes', async () => {
      expect((await putLogo('manager', png())).status).toBe(200);
      await as.manager('PUT', '/dashboard/manager/meta-positivacao-dia', { metaPositivacaoDia: 7 });
      expect(await storedLogo(t1)).toMatch(/^data:image\/png;base64,/);
    });

    it('refuses values outside 0..100000, fractions, and representatives and supervisors', async () => {
      for (const body of [
        { metaPositivacaoDia: -1 },
        { metaPositivacaoDia: 100_001 },
        { metaPositivacaoDia: 1.5 },
        {},
      ]) {
        const res = await as.manager('PUT', '/dashboard/manager/meta-positivacao-dia', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await problemOf(res)).errors?.[0]?.path).toBe('body.metaPositivacaoDia');
      }
      for (const who of ['rep', 'supervisor'] as const) {
        expect(
          (await as[who]('PUT', '/dashboard/manager/meta-positivacao-dia', { metaPositivacaoDia: 3 })).status,
        ).toBe(403);
      }
      expect((await db.pool.query('select 1 from app.config_empresa')).rowCount).toBe(0);
    });
  });

  describe('money rules: GET and PUT /catalog/company/money-rules', () => {
    const rulesPath = '/catalog/company/money-rules';
    const stored = async (idEmpresa: number) =>
      (
        await db.pool.query(
          `select politica_credito, flex_percentual_credito::text as share, flex_maximo_pontos::text as points
             from app.config_empresa where id_empresa = $1`,
          [idEmpresa],
        )
      ).rows[0] ?? null;
    const rulesOf = async (who: Who) => {
      const res = await as[who]('GET', rulesPath);
      expect(res.status).toBe(200);
      return (await res.json()) as MoneyRules;
    };
    const companyDocOf = async (who: Who) => {
      const res = await as[who]('GET', '/sync/ajustes/pull?limit=50');
      expect(res.status, await res.clone().text()).toBe(200);
      const { documents } = (await res.json()) as SyncPull;
      return documents.find((d) => d.id === 'empresa') as { empresa: Company } | undefined;
    };
    const valid: MoneyRules = { creditPolicy: 'block', flexCreditSharePercent: 50, flexMaxBeyondCeilingPoints: 5.25 };

    it('answers the defaults to every role of a tenant that never set them: flag, flex off', async () => {
      for (const who of ['rep', 'supervisor', 'manager', 'admin'] as const) {
        expect(await rulesOf(who)).toEqual({
          creditPolicy: 'flag',
          flexCreditSharePercent: 0,
          flexMaxBeyondCeilingPoints: 0,
        });
      }
      // A row kept for the logo alone holds the column defaults: the same answer.
      expect((await putLogo('manager', png())).status).toBe(200);
      expect((await rulesOf('rep')).creditPolicy).toBe('flag');
      expect(((await (await as.rep('GET', '/catalog/company')).json()) as Company).moneyRules).toEqual({
        creditPolicy: 'flag',
        flexCreditSharePercent: 0,
        flexMaxBeyondCeilingPoints: 0,
      });
    });

    it('a manager sets them; every role reads them, in the company too; the logo and target stay', async () => {
      expect((await putLogo('manager', png())).status).toBe(200);
      await as.manager('PUT', '/dashboard/manager/meta-positivacao-dia', { metaPositivacaoDia: 9 });
      const res = await as.manager('PUT', rulesPath, valid);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toEqual(valid);
      expect(await stored(t1)).toEqual({ politica_credito: 'block', share: '50.00', points: '5.25' });
      for (const who of ['rep', 'supervisor', 'admin'] as const) expect(await rulesOf(who)).toEqual(valid);
      const company = (await (await as.rep('GET', '/catalog/company')).json()) as Company;
      expect(company).toMatchObject({ moneyRules: valid, metaPositivacaoDia: 9 });
      expect(company.logoBase64).toMatch(/^data:image\/png;base64,/);

      const again = { creditPolicy: 'ignore', flexCreditSharePercent: 0, flexMaxBeyondCeilingPoints: 100 } as const;
      expect((await as.manager('PUT', rulesPath, again)).status).toBe(200);
      expect(await rulesOf('supervisor')).toEqual(again);
    });

    it("refreshes the devices' company document (ajustes 'empresa') with the new rules", async () => {
      // The log holds what earlier tests' PUTs wrote (beforeEach empties the table behind its back).
      expect((await companyDocOf('rep'))?.empresa.moneyRules).not.toEqual(valid);
      const before = await as.rep('GET', '/sync/ajustes/pull?limit=50');
      const { checkpoint } = (await before.json()) as SyncPull;
      expect((await as.manager('PUT', rulesPath, valid)).status).toBe(200);
      // Pulled from the checkpoint the device had: the change reaches a device already in sync.
      const after = await as.rep(
        'GET',
        `/sync/ajustes/pull?limit=50&checkpoint=${encodeURIComponent(checkpoint ?? '')}`,
      );
      expect(after.status).toBe(200);
      const changed = ((await after.json()) as SyncPull).documents as { id: string; empresa: Company | null }[];
      expect(changed.find((d) => d.id === 'empresa')?.empresa?.moneyRules).toEqual(valid);
      expect((await companyDocOf('foreignAdmin'))?.empresa.moneyRules?.creditPolicy).toBe('flag');
    });

    it('refuses representatives, supervisors and admins with 403, changing nothing', async () => {
      for (const who of ['rep', 'supervisor', 'admin', 'foreignAdmin'] as const) {
        const res = await as[who]('PUT', rulesPath, valid);
        expect(res.status, who).toBe(403);
        expect((await problemOf(res)).detail).toBe('Só gerentes definem a política de crédito e o flex.');
      }
      expect((await db.pool.query('select 1 from app.config_empresa')).rowCount).toBe(0);
    });

    it('refuses bad input with 400 naming the field, and changes nothing', async () => {
      expect((await as.manager('PUT', rulesPath, valid)).status).toBe(200);
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, flexCreditSharePercent: -1 }, 'body.flexCreditSharePercent'],
        [{ ...valid, flexCreditSharePercent: 100.01 }, 'body.flexCreditSharePercent'],
        [{ ...valid, flexMaxBeyondCeilingPoints: -0.01 }, 'body.flexMaxBeyondCeilingPoints'],
        [{ ...valid, flexMaxBeyondCeilingPoints: 1.005 }, 'body.flexMaxBeyondCeilingPoints'],
        [{ ...valid, flexCreditSharePercent: '50' }, 'body.flexCreditSharePercent'],
        [{ ...valid, creditPolicy: 'warn' }, 'body.creditPolicy'],
        [{ flexCreditSharePercent: 10, flexMaxBeyondCeilingPoints: 1 }, 'body.creditPolicy'],
        [{ ...valid, saldo: 1000 }, 'body'],
      ];
      for (const [body, path] of cases) {
        const res = await as.manager('PUT', rulesPath, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const problem = await problemOf(res);
        expect(problem.code).toBe('VALIDATION_FAILED');
        expect(
          problem.errors?.map((e) => e.path),
          JSON.stringify(body),
        ).toEqual([path]);
      }
      expect(await stored(t1)).toEqual({ politica_credito: 'block', share: '50.00', points: '5.25' });
    });

    it("keeps each tenant's rules apart", async () => {
      expect((await as.manager('PUT', rulesPath, valid)).status).toBe(200);
      expect(await stored(t2)).toBeNull();
      expect(await rulesOf('foreignAdmin')).toEqual({
        creditPolicy: 'flag',
        flexCreditSharePercent: 0,
        flexMaxBeyondCeilingPoints: 0,
      });
      await db.pool.query(
        "insert into app.config_empresa (id_empresa, politica_credito, flex_percentual_credito) values ($1, 'ignore', 20)",
        [t2],
      );
      expect(await rulesOf('foreignAdmin')).toMatchObject({ creditPolicy: 'ignore', flexCreditSharePercent: 20 });
      expect(await rulesOf('rep')).toEqual(valid);
    });
  });
});
