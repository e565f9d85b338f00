// New clients registered in the field, against a real PostgreSQL in each ERP encoding: the ERP record the
// trigger writes, idempotency, duplicate documents, field-level refusals, and the offline path
// (collection cadastros).
import { randomUUID } from 'node:crypto';
import { cnpjCheckDigits, cpfCheckDigits, type Problem, type SyncPull, type SyncRegistration } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { type ErpPeople, erpClientWritten, provisionedErp } from '../../../test/support/erp.ts';
import { TEST_ENCODING, useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';

const db = useTestDatabase();
type Api = ReturnType<typeof apiAs>;

let seq = 0;
/** A valid CNPJ no fixture holds: the base starts with 9s and counts up. */
function newCnpj(): string {
  const base = `99${String(++seq).padStart(10, '0')}`;
  return `${base}${cnpjCheckDigits(base)}`;
}

describe('new clients', () => {
  let as: Record<'rep' | 'otherRep' | 'manager', Api>;
  let rep: ErpPeople['reps'][number];
  let idPauta: number;
  let ownClient: { id: number; document: string; name: string };
  let otherClientDocument: string;
  let app: ReturnType<typeof testApp>;
  let repToken: string;

  const body = (over: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    razaoSocial: 'Padaria São João 🍞 “Ltda”',
    nomeFantasia: 'Pão Quente',
    documento: newCnpj().replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5'),
    inscricaoEstadual: 'isento',
    cep: '01310-100',
    endereco: 'Avenida Paulista',
    numero: '1000',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'sp',
    telefone: '(11) 3333-4444',
    email: 'compras@padaria.example',
    idPauta,
    ...over,
  });

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    rep = erp.reps[0] as ErpPeople['reps'][number];
    const other = erp.reps.find((r) => r.idEmpresa === rep.idEmpresa && r.codVendedor !== rep.codVendedor);
    const pauta = await db.pool.query('select id_pauta from app.vw_pautas where id_empresa = $1 limit 1', [
      rep.idEmpresa,
    ]);
    idPauta = pauta.rows[0].id_pauta;
    const own = await db.pool.query(
      'select id_cliente, cnpj_cpf, razao_social from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 limit 1',
      [rep.idEmpresa, rep.codVendedor],
    );
    ownClient = { id: own.rows[0].id_cliente, document: own.rows[0].cnpj_cpf, name: own.rows[0].razao_social };
    const theirs = await db.pool.query(
      'select cnpj_cpf from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 limit 1',
      [rep.idEmpresa, other?.codVendedor],
    );
    otherClientDocument = theirs.rows[0].cnpj_cpf;
    app = testApp(db.pool);
    repToken = await logInAs(app, db.pool, {
      login: 'rep@novo.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    const login = async (login: string, user: Omit<Parameters<typeof logInAs>[2], 'login'>) =>
      signedIn(app, db.pool, { ...user, login });
    as = {
      rep: apiAs(app, repToken),
      otherRep: await login('other@novo.test', {
        role: 'representative',
        idEmpresa: rep.idEmpresa,
        codVendedor: other?.codVendedor as number,
      }),
      manager: await login('ger@novo.test', { role: 'manager', idEmpresa: rep.idEmpresa }),
    };
  });

  it('registers the client in the ERP with every mandatory field, once, and it can take an order', async () => {
    const input = body();
    const res = await as.rep('POST', '/clients', input);
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { idCliente: number; documento: string; razaoSocial: string };
    expect(created.documento).toBe(input.documento.replace(/\D/g, ''));
    const row = await erpClientWritten(db.pool, created.idCliente);
    expect(row).toMatchObject({
      tipo: 'C',
      tipo_pessoa: 'J',
      // What the ERP's encoding holds: WIN1252 keeps the curly quotes, UTF8 the emoji too.
      razao_social: {
        LATIN1: 'Padaria São João "Ltda"',
        WIN1252: 'Padaria São João “Ltda”',
        UTF8: 'Padaria São João 🍞 “Ltda”',
      }[TEST_ENCODING],
      nome_fantasia: 'Pão Quente',
      inscricao_estadual: 'ISENTO',
      cep: '01310100',
      uf: 'SP',
      cidade: 'São Paulo',
      numero: '1000',
      telefone: '1133334444',
      cod_vendedor: rep.codVendedor,
      id_pauta: idPauta,
      origem: 'CAMPO',
      ativo: 'S',
    });
    for (const [column, value] of Object.entries(row)) {
      // id_condicao: Campo does not choose a client's default payment term; the cart asks for one.
      // latitude, longitude: a new client's position comes from a first check-in (docs/visits.md).
      const optional = ['complemento', 'email', 'telefone', 'limite_credito', 'dt_ultima_compra', 'id_condicao'];
      if (![...optional, 'latitude', 'longitude'].includes(column)) {
        expect({ column, value }).not.toEqual({ column, value: null });
      }
    }
    const novo = await db.pool.query('select sincronizado, id_corrent_erp from app.clientes_novos where chave = $1', [
      input.id,
    ]);
    expect(novo.rows[0]).toEqual({ sincronizado: true, id_corrent_erp: created.idCliente });
    // In the portfolio at once, and orderable.
    expect((await as.rep('GET', `/clients/${created.idCliente}`)).status).toBe(200);
    const again = await as.rep('POST', '/clients', input);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { idCliente: number }).idCliente).toBe(created.idCliente);
    const product = await db.pool.query(
      `select p.id_produto from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo limit 1`,
      [rep.idEmpresa, idPauta],
    );
    const placed = await app.request('/api/v1/orders', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${repToken}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        idCliente: created.idCliente,
        itens: [{ idProduto: product.rows[0].id_produto, quantidade: 1 }],
      }),
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
  });

  it('refuses a document already registered, naming the client only to its own representative', async () => {
    const mine = await as.rep('POST', '/clients', body({ documento: ownClient.document }));
    expect(mine.status).toBe(409);
    const problem = (await mine.json()) as Problem & { idCliente?: number };
    expect(problem.code).toBe('CLIENT_DOCUMENT_EXISTS');
    expect(problem.idCliente).toBe(ownClient.id);
    expect(problem.errors?.[0]?.path).toBe('body.documento');
    const theirs = await as.rep('POST', '/clients', body({ documento: otherClientDocument }));
    expect(theirs.status).toBe(409);
    const other = (await theirs.json()) as Problem & { idCliente?: number };
    expect(other.idCliente).toBeUndefined();
    expect(other.detail).toContain('outro representante');
    // Registered through Campo a moment ago counts too.
    const first = body();
    expect((await as.rep('POST', '/clients', first)).status).toBe(201);
    const dup = await as.otherRep('POST', '/clients', body({ documento: first.documento }));
    expect(dup.status).toBe(409);
  });

  it('names each bad field: check digits, CEP, UF, pauta; only representatives register', async () => {
    const digits = cpfCheckDigits('123456789');
    const wrongCpf = `123456789${digits[0]}${(Number(digits[1]) + 1) % 10}`;
    const res = await as.rep('POST', '/clients', body({ documento: wrongCpf, cep: '', uf: 'XX' }));
    expect(res.status).toBe(400);
    const problem = (await res.json()) as Problem;
    const paths = problem.errors?.map((e) => e.path).sort();
    expect(paths).toEqual(['body.cep', 'body.documento', 'body.uf']);
    expect(problem.errors?.find((e) => e.path === 'body.documento')?.message).toContain('dígito verificador');
    const pauta = await as.rep('POST', '/clients', body({ idPauta: 999999 }));
    expect(pauta.status).toBe(422);
    expect(((await pauta.json()) as Problem).code).toBe('PRICE_LIST_NOT_FOUND');
    expect((await as.manager('POST', '/clients', body())).status).toBe(403);
  });

  it('offline: a queued registration is pushed once, refusals come back per field, the client reaches clientes', async () => {
    const { checkpoint } = (await (await as.rep('GET', '/sync/clientes/pull?limit=1000')).json()) as SyncPull;
    const dados = body();
    const doc = {
      id: dados.id,
      status: 'queued',
      dados,
      idCliente: null,
      razaoSocial: null,
      documento: null,
      reasons: [],
      criadoEm: null,
      _deleted: false,
    };
    const push = async (rows: unknown[]) => {
      const r = await as.rep('POST', '/sync/cadastros/push', rows);
      expect(r.status, await r.clone().text()).toBe(200);
      return (await r.json()) as SyncRegistration[];
    };
    const [created] = await push([{ assumedMasterState: null, newDocumentState: doc }]);
    expect(created).toMatchObject({ id: dados.id, status: 'created' });
    const [again] = await push([{ assumedMasterState: null, newDocumentState: doc }]);
    expect(again?.idCliente).toBe(created?.idCliente);
    const count = await db.pool.query('select count(*)::int as n from app.clientes_novos where chave = $1', [dados.id]);
    expect(count.rows[0].n).toBe(1);
    const next = (await (
      await as.rep('GET', `/sync/clientes/pull?limit=1000&checkpoint=${checkpoint}`)
    ).json()) as SyncPull;
    expect(next.documents.map((d) => d.id)).toContain(String(created?.idCliente));
    const dupId = randomUUID();
    const [refused] = await push([
      {
        assumedMasterState: null,
        newDocumentState: { ...doc, id: dupId, dados: { ...dados, id: dupId } },
      },
    ]);
    expect(refused).toMatchObject({
      status: 'refused',
      reasons: [expect.objectContaining({ code: 'CLIENT_DOCUMENT_EXISTS' })],
    });
    const pulled = (await (await as.rep('GET', '/sync/cadastros/pull')).json()) as SyncPull;
    expect(pulled.documents.map((d) => d.id)).toContain(dados.id);
  });
});
