// What Campo's server reads from an ERP, declared once: every app view (and ERP-reading
// function) an ERP profile's SQL must create, each column's type, what is unique per tenant,
// and what the two triggers must produce. `campo provision --check` compares a mapped
// database with it, the tests compare the reference profile's views and db/types.ts with it,
// and docs/erp-contract.md prints it (renderViewContract), so the three cannot drift apart.

/**
 * Types as the server reads them. integer takes smallint and bigint too (all arrive as
 * numbers, db/pool.ts); text takes varchar(n) but never char(n), whose blank padding would
 * reach the API; the others are exact.
 */
export type ContractType = 'integer' | 'numeric' | 'text' | 'boolean' | 'date' | 'timestamp' | 'timestamptz';

export interface ContractColumn {
  name: string;
  type: ContractType;
  /** The type the reference profile's view has (format_type), for the guide. */
  reference: string;
  /** Never null: keys, the tenant and what the server cannot do without. */
  required?: boolean;
  meaning: string;
}

/** Sampled rows whose `columns` (when not null) must name a row of `view` by `as`. */
export interface ContractReference {
  columns: string[];
  view: string;
  as: string[];
}

export interface ViewContract {
  name: string;
  kind: 'view' | 'function';
  /** What the server uses it for. */
  meaning: string;
  /** Unique per tenant (the tenant column included where it has one); null: not checked. */
  key: string[] | null;
  /** Reads only Campo's own tables: a profile copies the reference file as it is. */
  campoOnly?: boolean;
  /** May return no rows: the ERP keeps no such data (docs/erp-contract.md, "Optional"). */
  optional?: boolean;
  /** A function's call with arguments that select nothing, to read its result's columns. */
  probe?: string;
  references?: ContractReference[];
  columns: ContractColumn[];
}

const c = (name: string, type: ContractType, reference: string, meaning: string, required = false): ContractColumn =>
  required ? { name, type, reference, required, meaning } : { name, type, reference, meaning };

const TENANT = c('id_empresa', 'integer', 'integer', 'tenant: the head office (vw_empresas.id_empresa)', true);
const FILIAL = c('id_filial', 'integer', 'integer', 'the ERP company of the row, head office or branch', true);
const tenantOf = (as = 'id_filial'): ContractReference => ({
  columns: ['id_empresa', as],
  view: 'vw_empresas',
  as: ['id_empresa', 'id_filial'],
});
const REP = { columns: ['id_empresa', 'cod_vendedor'], view: 'vw_vendedores', as: ['id_empresa', 'cod_vendedor'] };
const CLIENT = { columns: ['id_empresa', 'id_cliente'], view: 'vw_clientes', as: ['id_empresa', 'id_cliente'] };

export const VIEW_CONTRACT: ViewContract[] = [
  {
    name: 'vw_empresas',
    kind: 'view',
    meaning: 'every ERP company mapped to its tenant: every other view joins here to turn its company into the tenant',
    key: ['id_filial'],
    columns: [
      c(
        'id_empresa',
        'integer',
        'integer',
        'tenant: the head office the company belongs to (itself for a head office)',
        true,
      ),
      c('id_filial', 'integer', 'integer', 'the ERP company itself', true),
      c('matriz', 'boolean', 'boolean', 'true for a head office, the rows that are tenants', true),
      c('razao_social', 'text', 'character varying(100)', 'legal name'),
      c('nome_fantasia', 'text', 'character varying(60)', 'trade name'),
      c('cnpj', 'text', 'text', 'tax id, trimmed'),
      c('inscricao_estadual', 'text', 'character varying(20)', 'state registration'),
      c('endereco', 'text', 'character varying(100)', 'address, printed on orders'),
      c('cidade', 'text', 'character varying(60)', 'city'),
      c('uf', 'text', 'text', 'state, trimmed'),
      c('cep', 'text', 'text', 'postal code, trimmed'),
      c('telefone', 'text', 'character varying(20)', 'phone'),
      c('ativo', 'boolean', 'boolean', 'company active'),
    ],
  },
  {
    name: 'vw_supervisores',
    kind: 'view',
    meaning: 'supervisors per tenant (JWT claim cod_supervisor)',
    key: ['id_empresa', 'cod_supervisor'],
    references: [tenantOf()],
    columns: [
      TENANT,
      FILIAL,
      c('cod_supervisor', 'integer', 'integer', 'supervisor code, unique in the tenant', true),
      c('nome', 'text', 'character varying(60)', 'name'),
      c('email', 'text', 'character varying(100)', 'e-mail'),
      c('ativo', 'boolean', 'boolean', 'active'),
    ],
  },
  {
    name: 'vw_vendedores',
    kind: 'view',
    meaning: 'representatives per tenant with their supervisor, default discount ceiling and commission rates',
    key: ['id_empresa', 'cod_vendedor'],
    references: [
      tenantOf(),
      { columns: ['id_empresa', 'cod_supervisor'], view: 'vw_supervisores', as: ['id_empresa', 'cod_supervisor'] },
    ],
    columns: [
      TENANT,
      FILIAL,
      c(
        'cod_vendedor',
        'integer',
        'integer',
        'representative code (JWT claim cod_vendedor), unique in the tenant',
        true,
      ),
      c('nome', 'text', 'character varying(60)', 'name'),
      c('email', 'text', 'character varying(100)', 'e-mail'),
      c('telefone', 'text', 'character varying(20)', 'phone'),
      c('cod_supervisor', 'integer', 'integer', 'the supervisor (vw_supervisores) or null'),
      c('nome_supervisor', 'text', 'character varying(60)', "the supervisor's name"),
      c(
        'perc_desc_max',
        'numeric',
        'numeric(5,2)',
        "default discount ceiling in percent: Campo's own (app.limites_desconto_representante) else the ERP's; null: 5%",
      ),
      c('perc_desc_max_erp', 'numeric', 'numeric(5,2)', "the ERP's default ceiling alone"),
      c('perc_comissao', 'numeric', 'numeric(5,2)', 'fixed commission, percent of billing'),
      c('perc_comissao_flex', 'numeric', 'numeric(5,2)', 'FLEX commission, percent of what is sold above list price'),
      c('ativo', 'boolean', 'boolean', 'active'),
    ],
  },
  {
    name: 'vw_vendedor_limites',
    kind: 'view',
    meaning: "discount ceilings in force per representative and product category; Campo's override the ERP's",
    key: ['id_empresa', 'cod_vendedor', 'categoria'],
    references: [REP],
    columns: [
      TENANT,
      c('cod_vendedor', 'integer', 'integer', 'representative', true),
      c('categoria', 'text', 'text', "product category (vw_produtos.categoria); null: the rep's default"),
      c('perc_desc_max', 'numeric', 'numeric(5,2)', 'ceiling in percent', true),
      c('origem', 'text', 'text', "'campo' or 'erp': where the ceiling comes from", true),
    ],
  },
  {
    name: 'vw_grupos_produto',
    kind: 'view',
    meaning: 'product groups (discount rules select by group)',
    key: ['id_empresa', 'cod_grupo'],
    references: [tenantOf()],
    columns: [
      TENANT,
      FILIAL,
      c('cod_grupo', 'integer', 'integer', 'group code', true),
      c('descricao', 'text', 'character varying(60)', 'name'),
    ],
  },
  {
    name: 'vw_subgrupos_produto',
    kind: 'view',
    meaning: 'product subgroups with their group (discount rules select by subgroup)',
    key: ['id_empresa', 'cod_grupo', 'cod_subgrupo'],
    references: [tenantOf()],
    columns: [
      TENANT,
      FILIAL,
      c('cod_grupo', 'integer', 'integer', 'group', true),
      c('descricao_grupo', 'text', 'character varying(60)', "the group's name"),
      c('cod_subgrupo', 'integer', 'integer', 'subgroup code', true),
      c('descricao', 'text', 'character varying(60)', 'name'),
    ],
  },
  {
    name: 'vw_produtos',
    kind: 'view',
    meaning: 'the catalog, inactive products included (ativo false) so that sync removes them from devices',
    key: ['id_empresa', 'id_produto'],
    references: [tenantOf()],
    columns: [
      c('id_produto', 'integer', 'integer', 'product id; order lines carry it', true),
      TENANT,
      FILIAL,
      c('cod_produto', 'text', 'character varying(20)', 'product code shown to users', true),
      c('descricao', 'text', 'character varying(120)', 'description', true),
      c('unidade', 'text', 'character varying(6)', 'sales unit'),
      c('categoria', 'text', 'character varying(20)', "category: selects the representative's ceiling"),
      c('cod_grupo', 'integer', 'integer', 'group (discount rules)'),
      c('descricao_grupo', 'text', 'character varying(60)', "the group's name"),
      c('cod_subgrupo', 'integer', 'integer', 'subgroup (discount rules)'),
      c('descricao_subgrupo', 'text', 'character varying(60)', "the subgroup's name"),
      c('ean', 'text', 'text', 'barcode, trimmed'),
      c('peso_kg', 'numeric', 'numeric(10,3)', 'weight'),
      c(
        'imagem',
        'text',
        'character varying(200)',
        'photo: a path under PRODUCT_IMAGES_DIR or an http(s) URL; empty: none',
      ),
      c('ativo', 'boolean', 'boolean', 'active: offered and orderable', true),
      c('atualizado_em', 'timestamp', 'timestamp without time zone', 'last change, for incremental catalog sync'),
    ],
  },
  {
    name: 'vw_pautas',
    kind: 'view',
    meaning: 'price lists (pautas)',
    key: ['id_empresa', 'id_pauta'],
    references: [tenantOf()],
    columns: [
      TENANT,
      FILIAL,
      c('id_pauta', 'integer', 'integer', 'price list id', true),
      c('descricao', 'text', 'character varying(60)', 'name'),
      c('ativo', 'boolean', 'boolean', 'active'),
    ],
  },
  {
    name: 'vw_precos',
    kind: 'view',
    meaning: 'the list price of each product on each price list: the server prices every order line from here',
    key: ['id_empresa', 'id_pauta', 'id_produto'],
    references: [
      tenantOf(),
      { columns: ['id_empresa', 'id_produto'], view: 'vw_produtos', as: ['id_empresa', 'id_produto'] },
      { columns: ['id_empresa', 'id_pauta'], view: 'vw_pautas', as: ['id_empresa', 'id_pauta'] },
    ],
    columns: [
      TENANT,
      FILIAL,
      c('id_pauta', 'integer', 'integer', 'price list', true),
      c('id_produto', 'integer', 'integer', 'product', true),
      c('preco', 'numeric', 'numeric(14,4)', 'list price (preco_tabela of an order line)', true),
      c('atualizado_em', 'timestamp', 'timestamp without time zone', 'last change, for incremental price sync'),
    ],
  },
  {
    name: 'vw_condicoes_pagamento',
    kind: 'view',
    meaning: 'payment terms; the cart offers the active ones',
    key: ['id_empresa', 'id_condicao'],
    references: [tenantOf()],
    columns: [
      TENANT,
      FILIAL,
      c('id_condicao', 'integer', 'integer', 'payment term id (idCondicao of an order)', true),
      c('descricao', 'text', 'character varying(60)', 'name, copied into the order', true),
      c('ativo', 'boolean', 'boolean', 'active: offered and accepted'),
    ],
  },
  {
    name: 'vw_clientes_condicoes',
    kind: 'view',
    meaning: 'the terms a client is restricted to; a client without rows may use every active term',
    key: ['id_empresa', 'id_cliente', 'id_condicao'],
    references: [
      CLIENT,
      { columns: ['id_empresa', 'id_condicao'], view: 'vw_condicoes_pagamento', as: ['id_empresa', 'id_condicao'] },
    ],
    columns: [
      TENANT,
      c('id_cliente', 'integer', 'integer', 'client', true),
      c('id_condicao', 'integer', 'integer', 'a term the client may buy on', true),
    ],
  },
  {
    name: 'vw_clientes',
    kind: 'view',
    meaning:
      'the client portfolio with financial status, Campo credit limit and latest order; only clients, no suppliers',
    key: ['id_empresa', 'id_cliente'],
    references: [
      tenantOf(),
      REP,
      { columns: ['id_empresa', 'id_pauta'], view: 'vw_pautas', as: ['id_empresa', 'id_pauta'] },
    ],
    columns: [
      c('id_cliente', 'integer', 'integer', "client id (the ERP's, id_corrent in the reference)", true),
      TENANT,
      FILIAL,
      c('cod_vendedor', 'integer', 'integer', 'representative whose portfolio the client is in (vw_vendedores)'),
      c('id_pauta', 'integer', 'integer', "the client's price list (vw_pautas)"),
      c('tipo_pessoa', 'text', 'text', "'F' individual or 'J' company, trimmed"),
      c('razao_social', 'text', 'character varying(100)', 'legal name', true),
      c('nome_fantasia', 'text', 'character varying(60)', 'trade name'),
      c('cnpj_cpf', 'text', 'character varying(14)', 'tax id, digits only'),
      c('inscricao_estadual', 'text', 'character varying(20)', 'state registration'),
      c('endereco', 'text', 'text', 'street, trimmed, blank as null'),
      c('numero', 'text', 'text', 'number, trimmed, blank as null'),
      c('complemento', 'text', 'text', 'complement, trimmed, blank as null'),
      c('bairro', 'text', 'text', 'district, trimmed, blank as null'),
      c('cidade', 'text', 'text', 'city, trimmed, blank as null'),
      c('uf', 'text', 'text', 'state, trimmed, blank as null'),
      c('cep', 'text', 'text', 'postal code, trimmed, blank as null'),
      c('telefone', 'text', 'character varying(20)', 'phone'),
      c('email', 'text', 'character varying(100)', 'e-mail'),
      c('end_entrega', 'text', 'text', 'the address as one line, copied into a new order; null without street or city'),
      c('status_financeiro', 'text', 'text', "'ok', 'overdue' or 'blocked' (a blocked client cannot order)", true),
      c('valor_em_aberto', 'numeric', 'numeric(14,2)', 'open receivables'),
      c('valor_vencido', 'numeric', 'numeric(14,2)', 'overdue receivables'),
      c('dias_atraso_max', 'integer', 'integer', 'days the oldest overdue title is late'),
      c('limite_credito', 'numeric', 'numeric(14,2)', "Campo's credit limit (app.limites_credito), never the ERP's"),
      c('pedidos_em_aberto', 'numeric', 'numeric(14,2)', "the client's Campo orders pending or approved"),
      c(
        'ultimo_pedido_em',
        'timestamptz',
        'timestamp with time zone',
        'latest order, Campo or ERP; null: never ordered',
      ),
      c('cadastro_ativo', 'boolean', 'boolean', "the ERP's registration flag"),
      c('dt_cadastro', 'timestamp', 'timestamp without time zone', 'registration time'),
      c('origem', 'text', 'character varying(10)', "who registered it ('CAMPO' for clients Campo created)"),
      c('id_condicao', 'integer', 'integer', "the client's default payment term, pre-selected in the cart"),
    ],
  },
  {
    name: 'vw_titulos_abertos',
    kind: 'view',
    meaning: 'receivables not fully paid: the financial status of vw_clientes comes from them',
    key: ['id_titulo'],
    references: [tenantOf(), CLIENT],
    columns: [
      c('id_titulo', 'integer', 'integer', 'receivable id', true),
      TENANT,
      FILIAL,
      c('id_cliente', 'integer', 'integer', 'client who owes', true),
      c('id_nota', 'integer', 'integer', 'invoice'),
      c('num_documento', 'text', 'character varying(20)', 'document number'),
      c('dt_emissao', 'date', 'date', 'issue date'),
      c('dt_vencimento', 'date', 'date', 'due date', true),
      c('valor', 'numeric', 'numeric(14,2)', 'amount', true),
      c('valor_pago', 'numeric', 'numeric(14,2)', 'amount paid', true),
      c('valor_em_aberto', 'numeric', 'numeric', 'valor - valor_pago', true),
      c('vencido', 'boolean', 'boolean', 'due date before today', true),
      c('dias_atraso', 'integer', 'integer', 'days after the due date, 0 when not overdue', true),
    ],
  },
  {
    name: 'vw_titulos_cliente',
    kind: 'view',
    meaning: "a client's open receivables and those paid in the last 60 days",
    key: ['id_titulo'],
    references: [tenantOf(), CLIENT],
    columns: [
      c('id_titulo', 'integer', 'integer', 'receivable id', true),
      TENANT,
      FILIAL,
      c('id_cliente', 'integer', 'integer', 'client who owes', true),
      c('id_nota', 'integer', 'integer', 'invoice'),
      c('num_documento', 'text', 'character varying(20)', 'document number'),
      c('dt_emissao', 'date', 'date', 'issue date'),
      c('dt_vencimento', 'date', 'date', 'due date', true),
      c('valor', 'numeric', 'numeric(14,2)', 'amount', true),
      c('valor_pago', 'numeric', 'numeric(14,2)', 'amount paid', true),
      c('dt_pagamento', 'date', 'date', 'payment date'),
      c('valor_em_aberto', 'numeric', 'numeric', 'valor - valor_pago', true),
      c('pago', 'boolean', 'boolean', 'fully paid', true),
      c('dias_atraso', 'integer', 'integer', 'days after the due date while open, else 0', true),
    ],
  },
  {
    name: 'vw_sitpedido',
    kind: 'view',
    meaning: "the ERP's orders and their situation; a Campo order's replica is found here by its ERP id",
    key: ['id_pedido'],
    references: [
      tenantOf(),
      { columns: ['id_empresa', 'id_corrent'], view: 'vw_clientes', as: ['id_empresa', 'id_cliente'] },
    ],
    columns: [
      c('id_pedido', 'integer', 'integer', 'ERP order id (app.pedidos.erp_id_pedido of a replica)', true),
      TENANT,
      FILIAL,
      c('num_pedido', 'integer', 'integer', 'ERP order number, the one Campo shows (numPedidoErp)', true),
      c('num_ped_sar', 'integer', 'integer', "Campo's order number, on replicas"),
      c('id_corrent', 'integer', 'integer', 'client', true),
      c('cod_vendedor', 'integer', 'integer', 'representative'),
      c('id_pauta', 'integer', 'integer', 'price list'),
      c('dt_emissao', 'timestamp', 'timestamp without time zone', 'emission, local time'),
      c('situacao', 'text', 'text', "'A' open, 'F' invoiced, 'C' cancelled", true),
      c('situacao_descricao', 'text', 'text', "'aberto', 'faturado' or 'cancelado'"),
      c('valor_total', 'numeric', 'numeric(14,2)', 'order total'),
      c('end_entrega', 'text', 'character varying(200)', 'delivery address'),
      c('observacao', 'text', 'character varying(500)', 'notes'),
      c('origem', 'text', 'character varying(10)', "who placed it ('CAMPO' on replicas)"),
    ],
  },
  {
    name: 'vw_pedidos_erp_itens',
    kind: 'view',
    meaning: "the lines of the ERP's orders (an ERP order shown and repeated in the app, the client's mix)",
    key: ['id_pedido', 'seq'],
    references: [{ columns: ['id_pedido'], view: 'vw_sitpedido', as: ['id_pedido'] }],
    columns: [
      c('id_pedido', 'integer', 'integer', 'ERP order (vw_sitpedido)', true),
      TENANT,
      c('seq', 'integer', 'integer', 'line number', true),
      c('id_produto', 'integer', 'integer', 'product', true),
      c('cod_produto', 'text', 'character varying(20)', 'product code'),
      c('descricao', 'text', 'character varying(120)', 'product description'),
      c('unidade', 'text', 'character varying(6)', 'sales unit'),
      c('categoria', 'text', 'character varying(20)', 'product category'),
      c('quantidade', 'numeric', 'numeric(14,3)', 'quantity', true),
      c('preco_tabela', 'numeric', 'numeric(14,4)', 'list price at order time'),
      c('preco_unitario', 'numeric', 'numeric(14,4)', 'sold unit price', true),
      c('perc_desconto', 'numeric', 'numeric(5,2)', 'line discount, percent'),
      c('valor_total', 'numeric', 'numeric(14,2)', 'line total'),
    ],
  },
  {
    name: 'vw_pedidos_cliente',
    kind: 'view',
    meaning: "every order of a client, Campo's and the ERP's, in one shape (a replica shows once, as Campo's order)",
    // A union over two sources with nullable ids: looked up by client, never by key.
    key: null,
    columns: [
      c('origem', 'text', 'text', "'campo' or 'erp'", true),
      c('id_pedido', 'integer', 'bigint', "Campo's order id; null for ERP orders"),
      c('id_pedido_erp', 'integer', 'integer', 'ERP order id; null for a Campo order not approved yet'),
      TENANT,
      c('id_cliente', 'integer', 'integer', 'client', true),
      c('cod_vendedor', 'integer', 'integer', 'representative'),
      c('num_ped_sar', 'integer', 'integer', "Campo's order number"),
      c('num_pedido_erp', 'integer', 'integer', "the ERP's order number"),
      c('emitido_em', 'timestamptz', 'timestamp with time zone', 'when the order was placed'),
      c('status', 'text', 'text', 'pending_approval, approved, invoiced, rejected or cancelled', true),
      c('valor_total', 'numeric', 'numeric(14,2)', 'total'),
      c('emitido_em_local', 'timestamp', 'timestamp without time zone', "the same moment on the ERP's wall clock"),
    ],
  },
  {
    name: 'vw_positivacao_dia',
    kind: 'view',
    meaning: 'distinct clients with an order not rejected or cancelled, per tenant, representative and day',
    key: null,
    columns: [
      TENANT,
      c('cod_vendedor', 'integer', 'integer', 'representative'),
      c('dia', 'date', 'date', 'day'),
      c('clientes_positivados', 'integer', 'integer', 'distinct clients'),
      c('pedidos', 'integer', 'integer', 'orders'),
    ],
  },
  {
    name: 'vw_notas_fiscais',
    kind: 'view',
    meaning: 'invoices not cancelled: the source of billing',
    key: ['id_nota'],
    references: [tenantOf()],
    columns: [
      c('id_nota', 'integer', 'integer', 'invoice id', true),
      TENANT,
      FILIAL,
      c('num_nota', 'integer', 'integer', 'invoice number'),
      c('serie', 'text', 'character varying(3)', 'series'),
      c('id_pedido', 'integer', 'integer', 'invoiced ERP order'),
      c('id_cliente', 'integer', 'integer', 'client'),
      c('cod_vendedor', 'integer', 'integer', 'representative credited with the billing'),
      c('dt_emissao', 'date', 'date', 'issue date (month of billing)', true),
      c('valor_total', 'numeric', 'numeric(14,2)', 'invoice value', true),
    ],
  },
  {
    name: 'vw_notas_pedido',
    kind: 'view',
    meaning: "every invoice of an ERP order, cancelled ones flagged (the order's page)",
    key: ['id_nota'],
    references: [tenantOf()],
    columns: [
      c('id_nota', 'integer', 'integer', 'invoice id', true),
      TENANT,
      FILIAL,
      c('num_nota', 'integer', 'integer', 'invoice number'),
      c('serie', 'text', 'character varying(3)', 'series'),
      c('id_pedido', 'integer', 'integer', 'invoiced ERP order', true),
      c('id_cliente', 'integer', 'integer', 'client'),
      c('cod_vendedor', 'integer', 'integer', 'representative'),
      c('dt_emissao', 'date', 'date', 'issue date'),
      c('valor_total', 'numeric', 'numeric(14,2)', 'invoice value'),
      c('cancelada', 'boolean', 'boolean', 'cancelled', true),
    ],
  },
  {
    name: 'vw_faturamento_mes',
    kind: 'view',
    meaning: 'billing per tenant, representative and month (dashboards, commission)',
    key: null,
    columns: [
      TENANT,
      c('cod_vendedor', 'integer', 'integer', 'representative'),
      c('mes', 'date', 'date', "the month's first day"),
      c('valor_faturado', 'numeric', 'numeric(14,2)', 'value of the invoices not cancelled'),
      c('notas', 'integer', 'integer', 'invoices'),
      c('clientes', 'integer', 'integer', 'distinct clients invoiced'),
    ],
  },
  {
    name: 'vw_estoque',
    kind: 'view',
    meaning: 'stock on hand per tenant and product, from app.estoque_erp(); no rows when the ERP keeps none',
    key: ['id_empresa', 'id_produto'],
    optional: true,
    columns: [
      TENANT,
      c('id_produto', 'integer', 'integer', 'product', true),
      c('quantidade', 'numeric', 'numeric', 'quantity, head office and branches summed'),
    ],
  },
  {
    name: 'vw_produtos_fiscal',
    kind: 'view',
    meaning:
      'the fiscal data of each product (NCM, CEST, origin, IPI rate), from app.produtos_fiscal_erp(); no rows when the ERP keeps none',
    key: ['id_empresa', 'id_produto'],
    optional: true,
    references: [{ columns: ['id_empresa', 'id_produto'], view: 'vw_produtos', as: ['id_empresa', 'id_produto'] }],
    columns: [
      TENANT,
      FILIAL,
      c('id_produto', 'integer', 'integer', 'product', true),
      c('ncm', 'text', 'text', 'NCM, 8 digits, digits only'),
      c('cest', 'text', 'text', 'CEST, 7 digits, digits only; null: none'),
      c('origem', 'integer', 'integer', "the NF-e's origin of the goods, 0 to 8 (1, 2, 3 and 8 imported)"),
      c('perc_ipi', 'numeric', 'numeric', 'IPI rate, percent'),
      c('atualizado_em', 'timestamp', 'timestamp without time zone', 'last change'),
    ],
  },
  {
    name: 'vw_clientes_fiscal',
    kind: 'view',
    meaning: 'the ICMS regime of each client, from app.clientes_fiscal_erp(); no rows when the ERP keeps none',
    key: ['id_empresa', 'id_cliente'],
    optional: true,
    references: [CLIENT],
    columns: [
      TENANT,
      FILIAL,
      c('id_cliente', 'integer', 'integer', 'client', true),
      c('contribuinte_icms', 'boolean', 'boolean', 'an ICMS contributor (has a state registration)'),
      c('simples_nacional', 'boolean', 'boolean', 'under Simples Nacional'),
      c('consumidor_final', 'boolean', 'boolean', 'buys for its own use (always, when no contributor)'),
      c(
        'regime',
        'text',
        'text',
        "'contribuinte', 'simples', 'consumidor_final' or 'nao_contribuinte': what tax rules are keyed by",
      ),
    ],
  },
  {
    name: 'vw_regras_fiscais',
    kind: 'view',
    meaning:
      "the ERP's tax rules by NCM prefix, origin and destination state and client regime, from app.regras_fiscais_erp(); no rows when the ERP keeps none",
    key: ['id_empresa', 'id_regra'],
    optional: true,
    references: [tenantOf()],
    columns: [
      c('id_regra', 'integer', 'integer', 'rule id, unique in the tenant', true),
      TENANT,
      FILIAL,
      c('ncm', 'text', 'text', 'NCM or a prefix of it (2 to 8 digits); null: every NCM'),
      c('uf_origem', 'text', 'text', "origin state (the selling company's)"),
      c('uf_destino', 'text', 'text', "destination state (the client's)"),
      c('regime', 'text', 'text', "the client's regime (vw_clientes_fiscal.regime); null: any"),
      c(
        'aliq_icms',
        'numeric',
        'numeric',
        'ICMS rate of the operation: the internal one, or the interstate 4, 7 or 12',
      ),
      c('icms_st', 'boolean', 'boolean', 'ICMS-ST applies'),
      c('mva', 'numeric', 'numeric', 'original MVA, percent (adjusted by the calculation for interstate sales)'),
      c('aliq_icms_destino', 'numeric', 'numeric', "the destination's internal rate, for the ST"),
      c('perc_fcp', 'numeric', 'numeric', 'FCP rate, percent (0: none)'),
      c('perc_fcp_st', 'numeric', 'numeric', 'FCP-ST rate, percent (0: none)'),
      c('perc_reducao_base', 'numeric', 'numeric', 'reduction of the ICMS base, percent (0: none)'),
      c('atualizado_em', 'timestamp', 'timestamp without time zone', 'last change'),
    ],
  },
  {
    name: 'vw_regras_vigentes',
    kind: 'view',
    meaning: "Campo's discount rules in force today (reads no ERP table)",
    key: ['id'],
    campoOnly: true,
    optional: true,
    columns: [
      c('id', 'integer', 'bigint', 'rule id', true),
      TENANT,
      c('descricao', 'text', 'text', 'description'),
      c('grupo', 'integer', 'integer', 'product group it applies to; null: all'),
      c('subgrupo', 'integer', 'integer', 'subgroup; null: all'),
      c('representante', 'integer', 'integer', 'representative; null: all'),
      c('id_pauta', 'integer', 'integer', 'price list; null: all'),
      c('percent', 'numeric', 'numeric(5,2)', 'ceiling granted, percent'),
      c('vigencia_inicio', 'date', 'date', 'first day'),
      c('vigencia_fim', 'date', 'date', 'last day; null: open-ended'),
      c('promocao', 'boolean', 'boolean', 'a promotion (else a special condition)'),
      c('badge', 'text', 'text', "'Promocao' or 'Cond. especial'"),
    ],
  },
  {
    name: 'estoque_erp',
    kind: 'function',
    meaning: "the ERP's stock per company and product; no rows (never an error) when the ERP keeps none",
    key: null,
    optional: true,
    probe: 'select * from app.estoque_erp() limit 0',
    columns: [
      c('id_filial', 'integer', 'integer', 'ERP company holding the stock'),
      c('id_produto', 'integer', 'integer', 'product'),
      c('quantidade', 'numeric', 'numeric', 'quantity on hand, in the sales unit'),
    ],
  },
  {
    name: 'notas_itens_erp',
    kind: 'function',
    meaning: 'the lines of the invoices asked for (by id, through the key); no rows when the ERP keeps none',
    key: null,
    optional: true,
    probe: "select * from app.notas_itens_erp('{}'::bigint[])",
    columns: [
      c('id_nota', 'integer', 'integer', 'invoice'),
      c('seq', 'integer', 'integer', 'line number'),
      c('id_produto', 'integer', 'integer', 'product shipped'),
      c('quantidade', 'numeric', 'numeric', 'quantity shipped'),
      c('valor_unitario', 'numeric', 'numeric', 'unit price invoiced'),
      c('valor_total', 'numeric', 'numeric', 'line value'),
    ],
  },
  {
    name: 'dias_visita_erp',
    kind: 'function',
    meaning: 'the visit days the ERP keeps for the clients asked for; no rows when it keeps none',
    key: null,
    optional: true,
    probe: "select * from app.dias_visita_erp('{}'::integer[])",
    columns: [
      c('id_cliente', 'integer', 'integer', 'client'),
      c('dia_semana', 'integer', 'integer', 'ISO weekday, 1 Monday to 7 Sunday'),
      c('intervalo_semanas', 'integer', 'integer', 'every N weeks (null: 1)'),
      c('data_base', 'date', 'date', 'a day of a week the client is visited'),
    ],
  },
  {
    name: 'posicao_clientes_erp',
    kind: 'function',
    meaning: 'the coordinates the ERP keeps for the clients asked for; no rows when it keeps none',
    key: null,
    optional: true,
    probe: "select * from app.posicao_clientes_erp('{}'::integer[])",
    columns: [
      c('id_cliente', 'integer', 'integer', 'client'),
      c('latitude', 'numeric', 'double precision', 'WGS 84 degrees'),
      c('longitude', 'numeric', 'double precision', 'WGS 84 degrees'),
    ],
  },
];

/** What each trigger must do to the ERP, checked by the rehearsal of `campo provision --check`. */
export interface TriggerEffect {
  trigger: string;
  on: string;
  effects: string[];
}

export const TRIGGER_EFFECTS: TriggerEffect[] = [
  {
    trigger: 'trg_pedido_aprovado',
    on: 'BEFORE UPDATE OF situa ON app.pedidos, when situa goes from 1 (pending) to 2 (approved)',
    effects: [
      "writes one order header into the ERP, in the company the representative is registered in within the tenant: it appears in vw_sitpedido with the order's tenant, client, representative, price list, total and Campo's number (num_ped_sar), situacao 'A' and a new ERP order number (num_pedido) that no other order of the company has",
      'writes one ERP order line per app.pedido_itens line: they appear in vw_pedidos_erp_itens under that order with the same seq, product, quantity, list price, unit price, discount and total',
      "sets the new order's ERP id in app.pedidos.erp_id_pedido (NEW.erp_id_pedido), so that vw_pedidos_cliente shows the Campo order once, with the ERP's number",
      'in the approving transaction: an ERP error aborts the approval; an order that already has erp_id_pedido is not copied again; an order without lines is refused',
      "every text through app.texto_erp, cut to the ERP column's width",
    ],
  },
  {
    trigger: 'trg_cliente_novo',
    on: 'BEFORE INSERT ON app.clientes_novos',
    effects: [
      "writes one client into the ERP, in the company the representative is registered in: it appears in vw_clientes with the tenant, the representative (cod_vendedor), the price list, razao_social, the tax id (digits only) and origem 'CAMPO'",
      'sets its ERP id in app.clientes_novos.id_corrent_erp and sincronizado true',
      'refuses, naming the fields, a client whose mandatory data is empty after clean-up, and a tax id the tenant already has',
    ],
  },
];

/** The contract entry of a view or function, by name. */
export function contractOf(name: string): ViewContract | undefined {
  return VIEW_CONTRACT.find((v) => v.name === name);
}

/** Whether a column's PostgreSQL type (format_type) is what the contract's type accepts. */
export function typeFits(type: ContractType, actual: string): boolean {
  switch (type) {
    case 'integer':
      return ['smallint', 'integer', 'bigint'].includes(actual);
    case 'numeric':
      // Functions report their result columns without typmod; views keep numeric(p,s).
      return /^numeric(\(\d+,\d+\))?$/.test(actual) || actual === 'double precision';
    case 'text':
      return actual === 'text' || /^character varying(\(\d+\))?$/.test(actual);
    case 'boolean':
      return actual === 'boolean';
    case 'date':
      return actual === 'date';
    case 'timestamp':
      return actual === 'timestamp without time zone';
    case 'timestamptz':
      return actual === 'timestamp with time zone';
  }
}

/** A char(n) column: blank-padded, which a view must trim before it reaches the API. */
export function isPaddedChar(actual: string): boolean {
  return /^character(\(\d+\))?$/.test(actual);
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The contract as docs/erp-contract.md prints it, between its "view-contract" markers:
 * view-contract.test.ts fails when the page and this file differ.
 */
export function renderViewContract(): string {
  const out: string[] = [];
  for (const v of VIEW_CONTRACT) {
    // A function's heading is its probe's call, arguments as types: app.notas_itens_erp(bigint[]).
    const probe = /app\.\w+\([^)]*\)/.exec(v.probe ?? '')?.[0]?.replace(/'\{\}'::/g, '');
    const call = v.kind === 'function' ? (probe ?? `app.${v.name}()`) : `app.${v.name}`;
    out.push(`### ${call}`, '');
    const notes = [`${v.meaning.charAt(0).toUpperCase()}${v.meaning.slice(1)}.`];
    if (v.key) notes.push(`Unique per tenant: (${v.key.join(', ')}).`);
    if (v.references?.length) {
      const refs = v.references.map((r) => `(${r.columns.join(', ')}) names a row of ${r.view}`);
      notes.push(`When not null, ${refs.join('; ')}.`);
    }
    if (v.campoOnly) notes.push("Reads only Campo's tables: a profile copies the reference file unchanged.");
    else if (v.optional) notes.push('May return no rows: the ERP keeps none.');
    out.push(notes.join(' '), '');
    out.push('| column | type | reference profile | never null | meaning |', '| --- | --- | --- | --- | --- |');
    for (const col of v.columns) {
      out.push(
        `| ${col.name} | ${col.type} | ${col.reference} | ${col.required ? 'yes' : ''} | ${cell(col.meaning)} |`,
      );
    }
    out.push('');
  }
  out.push('### What the triggers must produce', '');
  for (const t of TRIGGER_EFFECTS) {
    out.push(`- \`${t.trigger}\` (${t.on}):`);
    for (const e of t.effects) out.push(`  - ${e}`);
  }
  return out.join('\n');
}
