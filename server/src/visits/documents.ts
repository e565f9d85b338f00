// Visits as the API and the devices see them, and the clients' visit days. A leaf of the domain:
// the service, the push and the collection's definition read it.
import {
  addDays,
  businessDate,
  decodeLossless,
  type SyncVisit,
  type Visit,
  type VisitDay,
  type VisitPlan,
  visitDue,
  visitMinutes,
} from '@campo/shared';
import type { SyncDoc } from '../changelog/collection.ts';
import { refusalsOf } from '../changelog/refusals.ts';
import type { Tx } from '../db/scope.ts';
import * as q from './queries.ts';

/** How far back a device holds its visits (the collection's window), in days. */
export const VISITS_SYNC_DAYS = 30;

const iso = (d: Date | string) => new Date(d).toISOString();

const position = (lat: number | null, lon: number | null, precisao: number | null) =>
  lat === null || lon === null ? null : { latitude: lat, longitude: lon, precisao };

export function toVisit(row: q.VisitRow, noRoteiro: boolean): Visit {
  // A time the server put in place of the device's says nothing of how long the visit lasted.
  const credible = row.entrada_aparelho_em === null && row.saida_aparelho_em === null && !row.saida_automatica;
  const minutos = visitMinutes(row.entrada_em, row.saida_em, credible);
  return {
    id: row.chave,
    codVendedor: row.cod_vendedor,
    idCliente: row.id_cliente,
    nomeCliente: row.nome_cliente,
    data: row.data,
    estado: row.saida_em === null ? 'aberta' : row.id_pedido !== null ? 'com_pedido' : 'sem_pedido',
    entradaEm: iso(row.entrada_em),
    entradaRecebidaEm: iso(row.entrada_recebida_em),
    saidaEm: row.saida_em === null ? null : iso(row.saida_em),
    saidaRecebidaEm: row.saida_recebida_em === null ? null : iso(row.saida_recebida_em),
    posicao: position(row.latitude, row.longitude, row.precisao_m),
    saidaPosicao: position(row.saida_latitude, row.saida_longitude, row.saida_precisao_m),
    distanciaMetros: row.distancia_m,
    minutos,
    noRoteiro,
    idPedido: row.id_pedido === null ? null : Number(row.id_pedido),
    numPedSar: row.num_ped_sar,
    idMotivo: row.id_motivo,
    motivo: row.motivo === null ? null : decodeLossless(row.motivo),
    observacao: row.observacao === null ? null : decodeLossless(row.observacao),
    foto: row.foto,
  };
}

/**
 * The clients' visit days: the ERP's where it keeps some for the client, else Campo's plan
 * (docs/visits.md, "The route").
 */
export async function plansOf(tx: Tx, idEmpresa: number, ids: number[]): Promise<Map<number, VisitPlan>> {
  const unique = [...new Set(ids)];
  const plans = new Map<number, VisitPlan>(unique.map((id) => [id, { idCliente: id, origem: 'nenhum', dias: [] }]));
  const day = (d: q.PlanDay): VisitDay => ({
    diaSemana: d.dia_semana,
    intervaloSemanas: d.intervalo_semanas,
    dataBase: d.data_base,
  });
  for (const d of await q.selectErpVisitDays(tx, unique)) {
    const plan = plans.get(d.id_cliente);
    if (!plan) continue;
    plan.origem = 'erp';
    plan.dias.push(day(d));
  }
  const rest = unique.filter((id) => plans.get(id)?.origem === 'nenhum');
  for (const d of await q.selectCampoVisitDays(tx, idEmpresa, rest)) {
    const plan = plans.get(d.id_cliente);
    if (!plan) continue;
    plan.origem = 'campo';
    plan.dias.push(day(d));
  }
  for (const plan of plans.values()) plan.dias.sort((a, b) => a.diaSemana - b.diaSemana);
  return plans;
}

/** The visits as the API answers them, each marked on or off its day's route. */
export async function visitsOf(tx: Tx, idEmpresa: number, rows: q.VisitRow[]): Promise<Visit[]> {
  const plans = await plansOf(
    tx,
    idEmpresa,
    rows.map((r) => r.id_cliente),
  );
  return rows.map((r) => toVisit(r, visitDue(r.data, plans.get(r.id_cliente)?.dias ?? [])));
}

export function visitSyncDoc(v: Visit): SyncDoc {
  const doc: SyncVisit = { ...v, _deleted: false };
  return { chave: v.id, escopo: v.codVendedor, documento: v.id, doc };
}

/** The first day a device holds visits of. */
export const syncWindowStart = (now = new Date()) => addDays(businessDate(now), -VISITS_SYNC_DAYS);

export async function loadVisitDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  // The window bounds what a device downloads; a visit named by its key (one just written, or
  // pushed by a phone offline for longer) is built whatever its day, and leaves at the next refresh.
  const rows = await q.selectRecentVisits(tx, idEmpresa, chaves === null ? syncWindowStart() : '1900-01-01', chaves);
  const visits = await visitsOf(tx, idEmpresa, rows);
  // A check-out the server could not take stays on the visit, with its reason (changelog/refusals.ts).
  const refused = await refusalsOf(
    tx,
    idEmpresa,
    'visitas',
    visits.map((v) => v.id),
  );
  return visits.map((v) => {
    const recusa = refused.get(v.id)?.[0]?.dados as SyncVisit['recusa'];
    return visitSyncDoc(recusa ? ({ ...v, recusa } as Visit) : v);
  });
}
