// Row types of the app schema's tables and views, as Kysely sees them. Generated from a
// provisioned database (information_schema) and kept by hand since: the SQL in sql/ is the
// source of truth, so a migration or view change updates this file in the same commit.
// numeric columns arrive as JavaScript numbers and bigint ids as numbers (see db/pool.ts).
import type { Generated } from 'kysely';

type Timestamp = Date;

export interface ChamadoMensagensTable {
  id: Generated<number>;
  id_chamado: number;
  id_empresa: number;
  autor_tipo: string;
  autor_nome: string;
  texto: string;
  criado_em: Generated<Timestamp>;
  /** Migration 0009: the device's message id, for idempotent pushes. */
  chave: string | null;
}

export interface ChamadosTable {
  id: Generated<number>;
  id_empresa: number;
  cod_vendedor: number;
  id_pedido: number | null;
  num_ped_sar: number | null;
  num_ped_erp: number | null;
  /** Migration 0007: the order's client, copied at creation. */
  id_cliente: number | null;
  nome_cliente: string;
  assunto: string;
  status: Generated<string>;
  criado_em: Generated<Timestamp>;
  atualizado_em: Generated<Timestamp>;
  /** Migration 0009: the device's ticket id, for idempotent pushes. */
  chave: string | null;
}

export interface ClientesNovosTable {
  id: Generated<number>;
  id_empresa: number;
  cod_vendedor: number;
  tipo_pessoa: string;
  razao_social: string;
  nome_fantasia: string | null;
  cnpj_cpf: string;
  inscricao_estadual: string | null;
  cep: string;
  endereco: string;
  numero: string | null;
  complemento: string | null;
  bairro: string;
  cidade: string;
  uf: string;
  telefone: string | null;
  email: string | null;
  id_pauta: number | null;
  id_corrent_erp: number | null;
  sincronizado: Generated<boolean>;
  criado_em: Generated<Timestamp>;
  /** Migration 0010: the device's id of the registration. */
  chave: string | null;
}

export interface ConfigEmpresaTable {
  id_empresa: number;
  logo: string | null;
  meta_positivacao_dia: number | null;
  atualizado_em: Generated<Timestamp>;
}

export interface LimitesCreditoTable {
  id_empresa: number;
  id_cliente: number;
  limite: number;
  atualizado_por: string | null;
  atualizado_em: Generated<Timestamp>;
}

export interface LimitesDescontoRepresentanteTable {
  id: Generated<number>;
  id_empresa: number;
  cod_vendedor: number;
  categoria: string | null;
  perc_desc_max: number;
  atualizado_em: Generated<Timestamp>;
}

export interface MetasRepresentanteTable {
  id_empresa: number;
  cod_vendedor: number;
  mes: string;
  valor_meta: number;
}

export interface OportunidadesTable {
  id: string;
  id_empresa: number;
  cod_vendedor: number;
  id_cliente: number | null;
  nome_prospect: string | null;
  empresa_prospect: string | null;
  id_pedido: number | null;
  estagio: Generated<string>;
  valor: number | null;
  previsao_fechamento: string | null;
  observacoes: string | null;
  motivo_perda: string | null;
  criado_em: Generated<Timestamp>;
  atualizado_em: Generated<Timestamp>;
}

export interface PedidoItensTable {
  id_pedido: number;
  seq: number;
  id_empresa: number;
  id_produto: number;
  cod_produto: string;
  descricao: string;
  categoria: string | null;
  cod_grupo: number | null;
  cod_subgrupo: number | null;
  quantidade: number;
  preco_tabela: number;
  preco_unitario: number;
  perc_desconto: Generated<number>;
  teto_desconto: number | null;
  id_regra: number | null;
  id_pauta: number | null;
  valor_total: number;
}

export interface PedidoStatusHistoricoTable {
  id: Generated<number>;
  id_pedido: number;
  id_empresa: number;
  situa_de: number | null;
  situa_para: number;
  usuario: string;
  motivo: string | null;
  criado_em: Generated<Timestamp>;
}

export interface PedidosTable {
  id: Generated<number>;
  id_empresa: number;
  cod_vendedor: number;
  num_ped_sar: number;
  situa: Generated<number>;
  id_cliente: number;
  nome_cliente: string;
  cnpj_cpf_cliente: string | null;
  end_entrega: string | null;
  id_pauta: number | null;
  observacao: string | null;
  valor_bruto: Generated<number>;
  valor_desconto: Generated<number>;
  valor_total: Generated<number>;
  erp_id_pedido: number | null;
  motivo_rejeicao: string | null;
  decidido_por: string | null;
  decidido_em: Timestamp | null;
  criado_em: Generated<Timestamp>;
  atualizado_em: Generated<Timestamp>;
  /** Migration 0014: the payment term (vw_condicoes_pagamento) and its description at creation. */
  id_condicao: number | null;
  condicao_pagamento: string | null;
}

export interface PushInscricoesTable {
  id: Generated<number>;
  id_empresa: number;
  usuario: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  criado_em: Generated<Timestamp>;
}

export interface RegrasDescontoTable {
  id: Generated<number>;
  id_empresa: number;
  descricao: string;
  grupo: number | null;
  subgrupo: number | null;
  representante: number | null;
  id_pauta: number | null;
  percent: number;
  vigencia_inicio: string;
  vigencia_fim: string | null;
  promocao: Generated<boolean>;
  criado_por: string | null;
  criado_em: Generated<Timestamp>;
  atualizado_em: Generated<Timestamp>;
}

export interface UsuariosTable {
  id: Generated<number>;
  id_empresa: number;
  login: string;
  nome: string;
  papel: 'representative' | 'supervisor' | 'manager' | 'admin';
  cod_vendedor: number | null;
  cod_supervisor: number | null;
  senha_hash: string;
  ativo: Generated<boolean>;
  versao_token: Generated<number>;
  criado_em: Generated<Timestamp>;
  atualizado_em: Generated<Timestamp>;
}

export interface VwClientesView {
  id_cliente: number | null;
  id_empresa: number | null;
  id_filial: number | null;
  cod_vendedor: number | null;
  id_pauta: number | null;
  tipo_pessoa: string | null;
  razao_social: string | null;
  nome_fantasia: string | null;
  cnpj_cpf: string | null;
  inscricao_estadual: string | null;
  endereco: string | null;
  numero: string | null;
  complemento: string | null;
  bairro: string | null;
  cidade: string | null;
  uf: string | null;
  cep: string | null;
  telefone: string | null;
  email: string | null;
  end_entrega: string | null;
  status_financeiro: string | null;
  valor_em_aberto: number | null;
  valor_vencido: number | null;
  dias_atraso_max: number | null;
  limite_credito: number | null;
  ultimo_pedido_em: Timestamp | null;
  cadastro_ativo: boolean | null;
  dt_cadastro: Timestamp | null;
  origem: string | null;
  /** The default payment term (vw_condicoes_pagamento). */
  id_condicao: number | null;
}

export interface VwClientesFinanceiroView {
  id_cliente: number | null;
  id_empresa: number | null;
  id_filial: number | null;
  bloqueio_manual: boolean | null;
  valor_em_aberto: number | null;
  valor_vencido: number | null;
  titulos_vencidos: number | null;
  dias_atraso_max: number | null;
  status_financeiro: string | null;
}

export interface VwEmpresasView {
  id_empresa: number | null;
  id_filial: number | null;
  matriz: boolean | null;
  razao_social: string | null;
  nome_fantasia: string | null;
  cnpj: string | null;
  inscricao_estadual: string | null;
  endereco: string | null;
  cidade: string | null;
  uf: string | null;
  cep: string | null;
  telefone: string | null;
  ativo: boolean | null;
}

export interface VwFaturamentoMesView {
  id_empresa: number | null;
  cod_vendedor: number | null;
  mes: string | null;
  valor_faturado: number | null;
  notas: number | null;
  clientes: number | null;
}

export interface VwGruposProdutoView {
  id_empresa: number | null;
  id_filial: number | null;
  cod_grupo: number | null;
  descricao: string | null;
}

export interface VwNotasFiscaisView {
  id_nota: number | null;
  id_empresa: number | null;
  id_filial: number | null;
  num_nota: number | null;
  serie: string | null;
  id_pedido: number | null;
  id_cliente: number | null;
  cod_vendedor: number | null;
  dt_emissao: string | null;
  valor_total: number | null;
}

export interface VwCondicoesPagamentoView {
  id_empresa: number | null;
  id_filial: number | null;
  id_condicao: number | null;
  descricao: string | null;
  ativo: boolean | null;
}

export interface VwClientesCondicoesView {
  id_empresa: number | null;
  id_cliente: number | null;
  id_condicao: number | null;
}

export interface VwEstoqueView {
  id_empresa: number | null;
  id_produto: number | null;
  quantidade: number | null;
}

export interface VwPautasView {
  id_empresa: number | null;
  id_filial: number | null;
  id_pauta: number | null;
  descricao: string | null;
  ativo: boolean | null;
}

export interface VwPedidosClienteView {
  origem: string | null;
  id_pedido: number | null;
  id_pedido_erp: number | null;
  id_empresa: number | null;
  id_cliente: number | null;
  cod_vendedor: number | null;
  num_ped_sar: number | null;
  num_pedido_erp: number | null;
  emitido_em: Timestamp | null;
  status: string | null;
  valor_total: number | null;
}

export interface VwPedidosErpItensView {
  id_pedido: number | null;
  id_empresa: number | null;
  seq: number | null;
  id_produto: number | null;
  cod_produto: string | null;
  descricao: string | null;
  unidade: string | null;
  categoria: string | null;
  quantidade: number | null;
  preco_tabela: number | null;
  preco_unitario: number | null;
  perc_desconto: number | null;
  valor_total: number | null;
}

export interface VwPositivacaoDiaView {
  id_empresa: number | null;
  cod_vendedor: number | null;
  dia: string | null;
  clientes_positivados: number | null;
  pedidos: number | null;
}

export interface VwPrecosView {
  id_empresa: number | null;
  id_filial: number | null;
  id_pauta: number | null;
  id_produto: number | null;
  preco: number | null;
  atualizado_em: Timestamp | null;
}

export interface VwProdutosView {
  id_produto: number | null;
  id_empresa: number | null;
  id_filial: number | null;
  cod_produto: string | null;
  descricao: string | null;
  unidade: string | null;
  categoria: string | null;
  cod_grupo: number | null;
  descricao_grupo: string | null;
  cod_subgrupo: number | null;
  descricao_subgrupo: string | null;
  ean: string | null;
  peso_kg: number | null;
  imagem: string | null;
  ativo: boolean | null;
  atualizado_em: Timestamp | null;
}

export interface VwRegrasVigentesView {
  id: number | null;
  id_empresa: number | null;
  descricao: string | null;
  grupo: number | null;
  subgrupo: number | null;
  representante: number | null;
  id_pauta: number | null;
  percent: number | null;
  vigencia_inicio: string | null;
  vigencia_fim: string | null;
  promocao: boolean | null;
  badge: string | null;
}

export interface VwSitpedidoView {
  id_pedido: number | null;
  id_empresa: number | null;
  id_filial: number | null;
  num_pedido: number | null;
  num_ped_sar: number | null;
  id_corrent: number | null;
  cod_vendedor: number | null;
  id_pauta: number | null;
  dt_emissao: Timestamp | null;
  situacao: string | null;
  situacao_descricao: string | null;
  valor_total: number | null;
  end_entrega: string | null;
  observacao: string | null;
  origem: string | null;
}

export interface VwSubgruposProdutoView {
  id_empresa: number | null;
  id_filial: number | null;
  cod_grupo: number | null;
  descricao_grupo: string | null;
  cod_subgrupo: number | null;
  descricao: string | null;
}

export interface VwSupervisoresView {
  id_empresa: number | null;
  id_filial: number | null;
  cod_supervisor: number | null;
  nome: string | null;
  email: string | null;
  ativo: boolean | null;
}

export interface VwTitulosAbertosView {
  id_titulo: number | null;
  id_empresa: number | null;
  id_filial: number | null;
  id_cliente: number | null;
  id_nota: number | null;
  num_documento: string | null;
  dt_emissao: string | null;
  dt_vencimento: string | null;
  valor: number | null;
  valor_pago: number | null;
  valor_em_aberto: number | null;
  vencido: boolean | null;
  dias_atraso: number | null;
}

export interface VwUltimaCompraView {
  id_cliente: number | null;
  id_empresa: number | null;
  ultimo_pedido_em: Timestamp | null;
}

export interface VwVendedorLimitesView {
  id_empresa: number | null;
  cod_vendedor: number | null;
  categoria: string | null;
  perc_desc_max: number | null;
  origem: string | null;
}

export interface VwVendedoresView {
  id_empresa: number | null;
  id_filial: number | null;
  cod_vendedor: number | null;
  nome: string | null;
  email: string | null;
  telefone: string | null;
  cod_supervisor: number | null;
  nome_supervisor: string | null;
  perc_desc_max: number | null;
  perc_desc_max_erp: number | null;
  perc_comissao: number | null;
  perc_comissao_flex: number | null;
  ativo: boolean | null;
}

export interface TentativasLoginTable {
  chave: string;
  falhas: number;
  janela_inicio: Timestamp;
}

/** Migration 0012: what a device pushed and the server could not take, until fixed or discarded. */
export interface SyncRecusasTable {
  id_empresa: number;
  colecao: string;
  chave: string;
  /** The part refused (a message id), '' for the whole document. */
  item: Generated<string>;
  cod_vendedor: number;
  /** JSON (ASCII-escaped): the refused content with its reason. */
  dados: string;
  criado_em: Generated<Timestamp>;
}

export interface DB {
  'app.chamado_mensagens': ChamadoMensagensTable;
  'app.chamados': ChamadosTable;
  'app.clientes_novos': ClientesNovosTable;
  'app.config_empresa': ConfigEmpresaTable;
  'app.limites_credito': LimitesCreditoTable;
  'app.limites_desconto_representante': LimitesDescontoRepresentanteTable;
  'app.metas_representante': MetasRepresentanteTable;
  'app.oportunidades': OportunidadesTable;
  'app.pedido_itens': PedidoItensTable;
  'app.pedido_status_historico': PedidoStatusHistoricoTable;
  'app.pedidos': PedidosTable;
  'app.push_inscricoes': PushInscricoesTable;
  'app.regras_desconto': RegrasDescontoTable;
  'app.usuarios': UsuariosTable;
  'app.vw_clientes': VwClientesView;
  'app.vw_clientes_condicoes': VwClientesCondicoesView;
  'app.vw_condicoes_pagamento': VwCondicoesPagamentoView;
  'app.vw_clientes_financeiro': VwClientesFinanceiroView;
  'app.vw_empresas': VwEmpresasView;
  'app.vw_estoque': VwEstoqueView;
  'app.vw_faturamento_mes': VwFaturamentoMesView;
  'app.vw_grupos_produto': VwGruposProdutoView;
  'app.vw_notas_fiscais': VwNotasFiscaisView;
  'app.vw_pautas': VwPautasView;
  'app.vw_pedidos_cliente': VwPedidosClienteView;
  'app.vw_pedidos_erp_itens': VwPedidosErpItensView;
  'app.vw_positivacao_dia': VwPositivacaoDiaView;
  'app.vw_precos': VwPrecosView;
  'app.vw_produtos': VwProdutosView;
  'app.vw_regras_vigentes': VwRegrasVigentesView;
  'app.vw_sitpedido': VwSitpedidoView;
  'app.vw_subgrupos_produto': VwSubgruposProdutoView;
  'app.vw_supervisores': VwSupervisoresView;
  'app.vw_titulos_abertos': VwTitulosAbertosView;
  'app.vw_ultima_compra': VwUltimaCompraView;
  'app.vw_vendedor_limites': VwVendedorLimitesView;
  'app.vw_vendedores': VwVendedoresView;
}

export interface ChavesIdempotenciaTable {
  id_empresa: number;
  id_usuario: number;
  chave: string;
  rota: string;
  hash_requisicao: string;
  status_resposta: number;
  corpo_resposta: Buffer;
  id_pedido: number | null;
  criado_em: Generated<Timestamp>;
}

/** Migration 0012: what a device pushed and the server could not take, until fixed or discarded. */
export interface SyncRecusasTable {
  id_empresa: number;
  colecao: string;
  chave: string;
  /** The part refused (a message id), '' for the whole document. */
  item: Generated<string>;
  cod_vendedor: number;
  /** JSON (ASCII-escaped): the refused content with its reason. */
  dados: string;
  criado_em: Generated<Timestamp>;
}

export interface DB {
  'app.chaves_idempotencia': ChavesIdempotenciaTable;
}

// Migration 0005: the push outbox (docs/push.md).
export interface PushOutboxTable {
  id: Generated<number>;
  id_empresa: number;
  usuario: string;
  /** The push message as UTF-8 JSON bytes (bytea: the database is LATIN1). */
  payload: Buffer;
  topico: string | null;
  urgencia: Generated<'very-low' | 'low' | 'normal' | 'high'>;
  ttl: Generated<number>;
  tentativas: Generated<number>;
  proxima_tentativa_em: Generated<Timestamp>;
  endpoints_pendentes: string[] | null;
  entregas: Generated<number>;
  ultimo_erro: string | null;
  criado_em: Generated<Timestamp>;
  enviado_em: Timestamp | null;
  falhou_em: Timestamp | null;
  /** Migration 0013: the X-Request-Id of the request that queued the message. */
  id_requisicao: string | null;
}

/** Migration 0012: what a device pushed and the server could not take, until fixed or discarded. */
export interface SyncRecusasTable {
  id_empresa: number;
  colecao: string;
  chave: string;
  /** The part refused (a message id), '' for the whole document. */
  item: Generated<string>;
  cod_vendedor: number;
  /** JSON (ASCII-escaped): the refused content with its reason. */
  dados: string;
  criado_em: Generated<Timestamp>;
}

export interface DB {
  'app.push_outbox': PushOutboxTable;
}

// Migration 0008: the replication change log (docs/sync.md).
export interface SyncAlteracoesTable {
  id_empresa: number;
  colecao: string;
  chave: string;
  /** The representative the document belongs to; null: the whole tenant. */
  escopo: number | null;
  /** Migration 0009: the id the device knows the document by. */
  documento: string;
  hash: string;
  revisao: number;
  /** Migration 0009: the writing transaction (txid_current()). */
  xid: Generated<number>;
  excluido: Generated<boolean>;
  atualizado_em: Generated<Timestamp>;
  /** Migration 0012: the document's JSON text (ASCII-escaped); null on rows older than it. */
  dados: string | null;
}

/** Migration 0012: what a device pushed and the server could not take, until fixed or discarded. */
export interface SyncRecusasTable {
  id_empresa: number;
  colecao: string;
  chave: string;
  /** The part refused (a message id), '' for the whole document. */
  item: Generated<string>;
  cod_vendedor: number;
  /** JSON (ASCII-escaped): the refused content with its reason. */
  dados: string;
  criado_em: Generated<Timestamp>;
}

export interface DB {
  'app.sync_alteracoes': SyncAlteracoesTable;
  'app.sync_recusas': SyncRecusasTable;
  'app.tentativas_login': TentativasLoginTable;
}
