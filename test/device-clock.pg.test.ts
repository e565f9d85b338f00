// The sweep of issue 50, item 4: every time a device sends, by REST or in a pushed document, is
// either bounded by the window of shared/src/device-time.ts against the server's clock or
// ignored for the server's own (docs/sync.md, "The device's clock"), and a time dated 1999 or
// 2099 is never refused and never blocks the representative's next action.
//
// The inventory walks the OpenAPI document's request bodies (date-time fields) and the schemas
// of the documents devices push (every field named ...Em or ...At), so a time field added to a
// contract without a decision here fails the first test.
import { randomUUID } from 'node:crypto';
import {
  cnpjCheckDigits,
  type SyncOpportunity,
  type SyncOrder,
  type SyncRegistration,
  type SyncTicket,
  type SyncVisit,
  type SyncWritableCollection,
  type Visit,
  type VisitReason,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './support/app.ts';
import { type Api, aCard, anOrder, aPricedClient, aRepresentative, type Rep, signedIn } from './support/builders.ts';
import { provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();

/**
 * What the server does with each time a device sends:
 * - bounded: the device's inside the window, else the server's (device-time.ts);
 * - server: never read, the server stamps its own (a pushed master field);
 * - stamp: an echo of the server's own time, compared, never stored;
 * - device: the device's own, never stored nor used by the server (echoed back on a refusal).
 */
const TIMES: Record<string, 'bounded' | 'server' | 'stamp' | 'device'> = {
  'POST /visits em': 'bounded',
  'POST /visits/{id}/checkout em': 'bounded',
  'PATCH /funil/{id} baseAtualizadoEm': 'stamp',
  'visitas entradaEm': 'bounded',
  'visitas saidaEm': 'bounded',
  'visitas entradaRecebidaEm': 'server',
  'visitas saidaRecebidaEm': 'server',
  'funil criadoEm': 'bounded',
  'funil atualizadoEm': 'bounded',
  'chamados criadoEm': 'server',
  'chamados atualizadoEm': 'server',
  'chamados mensagens[].criadoEm': 'server',
  'pedidos queuedAt': 'device',
  'pedidos updatedAt': 'server',
  'cadastros criadoEm': 'server',
};
/** Inside a pushed order only `draft` is read: the order the server holds is the server's. */
const IGNORED_PUSHED = /^pedidos order\./;

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  $ref?: string;
};

function timeFields(
  schema: Schema | undefined,
  path: string,
  out: Set<string>,
  isTime: (name: string, s: Schema) => boolean,
  resolve: (s: Schema) => Schema | undefined,
  depth = 0,
): void {
  const s = schema && (schema.$ref ? resolve(schema) : schema);
  if (!s || depth > 8) return;
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    const p = property.$ref ? resolve(property) : property;
    const at = path ? `${path}.${name}` : name;
    if (p && isTime(name, p)) out.add(at);
    timeFields(p, at, out, isTime, resolve, depth + 1);
  }
  timeFields(s.items, `${path}[]`, out, isTime, resolve, depth + 1);
  for (const option of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) {
    timeFields(option, path, out, isTime, resolve, depth + 1);
  }
}

const isDateTime = (s: Schema): boolean =>
  s.format === 'date-time' || [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(isDateTime);

/** The documents devices push, as the OpenAPI document names their schemas. */
const PUSHED = {
  visitas: 'SyncVisit',
  funil: 'SyncOpportunity',
  chamados: 'SyncTicket',
  pedidos: 'SyncOrder',
  cadastros: 'SyncRegistration',
} satisfies Record<SyncWritableCollection, string>;

const Y2099 = '2099-06-15T12:00:00.000Z';
const Y1999 = '1999-06-15T12:00:00.000Z';
const ABSURD = [Y1999, Y2099];

let seq = 0;
function newCnpj(): string {
  const base = `98${String(++seq).padStart(10, '0')}`;
  return `${base}${cnpjCheckDigits(base)}`;
}

describe("the device's clock, over every time a device sends", () => {
  let app: ReturnType<typeof testApp>;
  let r1: Rep;
  let rep: Api;
  let clients: number[];
  let idMotivo: number;

  const push = async <T>(colecao: string, doc: Record<string, unknown>, assumed: unknown = null): Promise<T> => {
    const res = await rep('POST', `/sync/${colecao}/push`, [{ assumedMasterState: assumed, newDocumentState: doc }]);
    expect(res.status, `${colecao}: ${await res.clone().text()}`).toBe(200);
    return ((await res.json()) as T[])[0] as T;
  };

  /** Runs `write` and expects `at` to be the server's time of it, not the device's. */
  async function serverTimeOf(write: () => Promise<string | null | undefined>) {
    const before = Date.now();
    const at = await write();
    const after = Date.now();
    const t = new Date(at ?? '').getTime();
    expect(t, `${at} is the server's time`).toBeGreaterThanOrEqual(before - 1000);
    expect(t, `${at} is the server's time`).toBeLessThanOrEqual(after + 1000);
  }

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1] = erp.tenants as [number];
    r1 = await aRepresentative(db.pool, erp, { tenant: t1 });
    app = testApp(db.pool);
    rep = await signedIn(app, db.pool, {
      login: 'rep@varredura-relogio.test',
      role: 'representative',
      idEmpresa: r1.idEmpresa,
      codVendedor: r1.codVendedor,
    });
    const { rows } = await db.pool.query<{ id: number }>(
      `select id_cliente as id from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo order by id_cliente`,
      [r1.idEmpresa, r1.codVendedor],
    );
    clients = rows.map((x) => x.id);
    const reasons = (await (await rep('GET', '/visit-reasons')).json()) as { items: VisitReason[] };
    idMotivo = (reasons.items[0] as VisitReason).id;
  });

  it('has a decision for every time a device sends (REST bodies and pushed documents)', async () => {
    const found = new Set<string>();
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
      components?: { schemas?: Record<string, Schema> };
    };
    const resolve = (s: Schema) => doc.components?.schemas?.[String(s.$ref).split('/').pop() ?? ''];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (path.startsWith('/api/v1/sync/') || path.startsWith('/sync/')) continue;
        for (const content of Object.values(op.requestBody?.content ?? {})) {
          const out = new Set<string>();
          timeFields(content.schema, '', out, (_, s) => isDateTime(s), resolve);
          for (const f of out) found.add(`${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '')} ${f}`);
        }
      }
    }
    for (const [colecao, name] of Object.entries(PUSHED)) {
      const schema = doc.components?.schemas?.[name];
      expect(schema, name).toBeDefined();
      const out = new Set<string>();
      timeFields(schema, '', out, (field, s) => /(Em|At)$/.test(field) || isDateTime(s), resolve);
      for (const f of out) {
        const key = `${colecao} ${f}`;
        if (!IGNORED_PUSHED.test(key)) found.add(key);
      }
    }
    expect([...found].sort()).toEqual(Object.keys(TIMES).sort());
  });

  it('bounds a visit’s check-in and check-out, by REST and by push, and nothing blocks the next visit', async () => {
    for (const sent of ABSURD) {
      // REST: Cheguei and Saí dated 1999 or 2099.
      let id = randomUUID();
      await serverTimeOf(async () => {
        const res = await rep('POST', '/visits', { id, idCliente: clients[0], em: sent, posicao: null });
        expect(res.status).toBe(201);
        return ((await res.json()) as Visit).entradaEm;
      });
      await serverTimeOf(async () => {
        const res = await rep('POST', `/visits/${id}/checkout`, { em: sent, idMotivo });
        expect(res.status).toBe(200);
        return ((await res.json()) as Visit).saidaEm;
      });
      // Push: the same check-in and check-out in one document.
      id = randomUUID();
      await serverTimeOf(async () => {
        const master = await push<SyncVisit>('visitas', {
          id,
          idCliente: clients[1],
          entradaEm: sent,
          posicao: null,
          saidaEm: sent,
          saidaPosicao: null,
          idMotivo,
          observacao: null,
          // The server's fields, as a device may hold them: never read.
          entradaRecebidaEm: sent,
          saidaRecebidaEm: sent,
          _deleted: false,
        });
        expect(master.recusa ?? null).toBeNull();
        expect(master.estado).toBe('sem_pedido');
        // Both times the server's: no duration is counted.
        expect(master.minutos).toBeNull();
        return master.entradaEm;
      });
    }
    // Nothing left open: the next check-in is taken.
    const next = await rep('POST', '/visits', {
      id: randomUUID(),
      idCliente: clients[2],
      em: new Date().toISOString(),
      posicao: null,
    });
    expect(next.status).toBe(201);
  });

  it('stamps a funnel card’s times with the server’s clock when the device’s are outside the window', async () => {
    for (const sent of ABSURD) {
      const card = aCard({ criadoEm: sent, atualizadoEm: sent });
      const created = await push<SyncOpportunity>('funil', card);
      expect(created.recusa ?? null).toBeNull();
      await serverTimeOf(async () => created.criadoEm);
      await serverTimeOf(async () => created.atualizadoEm);
      // The next edit, dated the same, is taken too.
      const edited = await push<SyncOpportunity>('funil', { ...created, valor: 200, atualizadoEm: sent }, created);
      expect(edited.recusa ?? null).toBeNull();
      expect(edited.valor).toBe(200);
      await serverTimeOf(async () => edited.atualizadoEm);
    }
  });

  it('writes the server’s time on a ticket and its messages, whatever the device’s said', async () => {
    const order = await anOrder(db.pool, r1);
    for (const sent of ABSURD) {
      const message = (texto: string) => ({
        id: randomUUID(),
        autorTipo: 'representante',
        autorNome: '',
        texto,
        criadoEm: sent,
      });
      const ticket = {
        id: randomUUID(),
        idChamado: null,
        idPedido: order.id,
        numPedSar: null,
        numPedErp: null,
        idCliente: null,
        nomeCliente: null,
        assunto: 'Entrega atrasada',
        status: 'aberto',
        mensagens: [message('Não chegou.')],
        criadoEm: sent,
        atualizadoEm: sent,
        _deleted: false,
      };
      const opened = await push<SyncTicket>('chamados', ticket);
      expect(opened.idChamado).not.toBeNull();
      await serverTimeOf(async () => opened.criadoEm);
      await serverTimeOf(async () => opened.mensagens[0]?.criadoEm);
      const replied = await push<SyncTicket>(
        'chamados',
        { ...opened, mensagens: [...opened.mensagens, message('Ainda não.')] },
        opened,
      );
      expect(replied.mensagens).toHaveLength(2);
      await serverTimeOf(async () => replied.mensagens[1]?.criadoEm);
      await serverTimeOf(async () => replied.atualizadoEm);
    }
  });

  it('creates a queued order whatever its queuedAt, on the server’s date', async () => {
    const client = await aPricedClient(db.pool, r1);
    for (const sent of ABSURD) {
      const id = randomUUID();
      const draft = {
        idCliente: client.idCliente,
        idPauta: client.idPauta,
        endEntrega: 'Rua das Flores, 100 - Centro',
        itens: [{ idProduto: client.products[0]?.id, quantidade: 1 }],
      };
      const answer = await push<SyncOrder>('pedidos', {
        id,
        status: 'queued',
        draft,
        order: null,
        reasons: [],
        queuedAt: sent,
        updatedAt: sent,
        _deleted: false,
      });
      expect(answer.reasons).toEqual([]);
      expect(answer.status).toBe('pending_approval');
      await serverTimeOf(async () => answer.order?.criadoEm);
      await serverTimeOf(async () => answer.updatedAt);
    }
  });

  it('registers a client pushed with any criadoEm, stamped with the server’s', async () => {
    const pauta = await db.pool.query<{ id_pauta: number }>(
      'select id_pauta from app.vw_pautas where id_empresa = $1 limit 1',
      [r1.idEmpresa],
    );
    for (const sent of ABSURD) {
      const id = randomUUID();
      const dados = {
        id,
        razaoSocial: 'Empório Relógio Ltda',
        documento: newCnpj(),
        inscricaoEstadual: 'ISENTO',
        cep: '01310100',
        endereco: 'Avenida Paulista',
        numero: '1000',
        bairro: 'Bela Vista',
        cidade: 'São Paulo',
        uf: 'SP',
        idPauta: pauta.rows[0]?.id_pauta,
      };
      const answer = await push<SyncRegistration>('cadastros', {
        id,
        status: 'queued',
        dados,
        idCliente: null,
        razaoSocial: null,
        documento: null,
        reasons: [],
        criadoEm: sent,
        _deleted: false,
      });
      expect(answer.reasons).toEqual([]);
      expect(answer.status).toBe('created');
      await serverTimeOf(async () => answer.criadoEm);
    }
  });
});
