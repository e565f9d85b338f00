// Orders as the API shows them (ZOrder), read in bulk: four statements for any number of
// orders. GET /orders/{id}, the answers of create and decide, and the replicated pedidos
// collection all build orders here, so a device holds exactly what the API answers.
import { decodeLossless, type Order, statusOfSitua } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import * as q from './queries.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function groupBy<T extends { id_pedido: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const r of rows) {
    const list = map.get(r.id_pedido);
    if (list) list.push(r);
    else map.set(r.id_pedido, [r]);
  }
  return map;
}

/** The credit an order was judged by (Order.credit): null when the client had no limit. */
export function creditOf(row: {
  credito_limite: number | null;
  credito_aberto: number | null;
  credito_disponivel: number | null;
  credito_excedido: boolean;
}): Order['credit'] {
  return row.credito_limite === null
    ? null
    : {
        limit: row.credito_limite,
        open: row.credito_aberto ?? 0,
        available: row.credito_disponivel ?? 0,
        exceeded: row.credito_excedido,
      };
}

export async function loadOrders(tx: Tx, idEmpresa: number, ids: readonly number[]): Promise<Map<number, Order>> {
  const result = new Map<number, Order>();
  if (ids.length === 0) return result;
  const rows = await q.selectOrdersById(tx, idEmpresa, ids);
  const erpIds = rows.flatMap((r) => (r.erp_id_pedido === null ? [] : [r.erp_id_pedido]));
  const [lines, history, erp] = await Promise.all([
    q.selectOrderLines(tx, idEmpresa, ids),
    q.selectHistory(tx, idEmpresa, ids),
    erpIds.length > 0 ? q.selectErpSituations(tx, idEmpresa, erpIds) : Promise.resolve([]),
  ]);
  const linesOf = groupBy(lines);
  const historyOf = groupBy(history);
  const erpOf = new Map(erp.map((e) => [e.id_pedido, e]));
  for (const row of rows) {
    const copy = row.erp_id_pedido === null ? undefined : erpOf.get(row.erp_id_pedido);
    const situacao = copy?.situacao_descricao;
    result.set(row.id, {
      id: row.id,
      numPedSar: row.num_ped_sar,
      status: statusOfSitua(row.situa),
      codVendedor: row.cod_vendedor,
      idCliente: row.id_cliente,
      nomeCliente: row.nome_cliente,
      cnpjCpfCliente: row.cnpj_cpf_cliente,
      endEntrega: row.end_entrega,
      idPauta: row.id_pauta,
      observacao: row.observacao,
      condicaoPagamento:
        row.id_condicao === null ? null : { id: row.id_condicao, descricao: row.condicao_pagamento ?? '' },
      valorBruto: row.valor_bruto,
      valorDesconto: row.valor_desconto,
      valorTotal: row.valor_total,
      credit: creditOf(row),
      motivoRejeicao: row.motivo_rejeicao === null ? null : decodeLossless(row.motivo_rejeicao),
      decididoPor: row.decidido_por,
      nomeDecididoPor: row.nome_decidido_por === null ? null : decodeLossless(row.nome_decidido_por),
      decididoEm: iso(row.decidido_em),
      criadoEm: iso(row.criado_em) as string,
      erpIdPedido: row.erp_id_pedido,
      // The ERP's own number, read from the copy the approval trigger wrote (vw_sitpedido).
      numPedidoErp: copy?.num_pedido ?? null,
      erpSituacao: (situacao as Order['erpSituacao']) ?? null,
      itens: (linesOf.get(row.id) ?? []).map((l) => ({
        seq: l.seq,
        idProduto: l.id_produto,
        codProduto: l.cod_produto,
        descricao: l.descricao,
        categoria: l.categoria,
        quantidade: l.quantidade,
        precoTabela: l.preco_tabela,
        precoUnitario: l.preco_unitario,
        descontoPercent: l.perc_desconto,
        tetoPercent: l.teto_desconto,
        regra: l.id_regra === null ? null : { id: l.id_regra, descricao: decodeLossless(l.descricao_regra ?? '') },
        idPauta: l.id_pauta,
        valorTotal: l.valor_total,
        flexGerado: l.flex_gerado,
        flexUsado: l.flex_usado,
      })),
      historico: (historyOf.get(row.id) ?? []).map((h) => ({
        de: h.situa_de === null ? null : statusOfSitua(h.situa_de),
        para: statusOfSitua(h.situa_para),
        usuario: h.usuario,
        nomeUsuario: h.nome === null ? null : decodeLossless(h.nome),
        motivo: h.motivo === null ? null : decodeLossless(h.motivo),
        em: iso(h.criado_em) as string,
      })),
    });
  }
  return result;
}
