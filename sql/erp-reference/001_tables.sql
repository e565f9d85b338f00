-- Reference ERP: the tables of a typical Brazilian distributor ERP that Campo reads or
-- writes, as the ERP itself would create them (schema public, Portuguese names, LATIN1).
-- Campo never creates these in a client's database: `campo erp-fixture` uses this file to
-- build a demo or test ERP. docs/erp-contract.md lists what Campo's views and triggers use.

-- Companies: head offices (id_matriz null) are the tenants (id_empresa); branches point
-- to their head office.
create table empresas (
  id_empresa      integer primary key,
  id_matriz       integer references empresas (id_empresa),
  razao_social    varchar(100) not null,
  nome_fantasia   varchar(60) not null,
  cnpj            char(14) not null unique,
  inscricao_estadual varchar(20) not null,
  endereco        varchar(100) not null,
  cidade          varchar(60) not null,
  uf              char(2) not null,
  cep             char(8) not null,
  telefone        varchar(20),
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N'))
);

create table supervisores (
  id_empresa      integer not null references empresas (id_empresa),
  cod_supervisor  integer not null,
  nome            varchar(60) not null,
  email           varchar(100),
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N')),
  primary key (id_empresa, cod_supervisor)
);

-- Representatives (vendedores). perc_desc_max is the default discount ceiling (null: none
-- set, the engine then uses 5%); perc_comissao and perc_comissao_flex are the fixed and
-- flex commission rates, in percent.
create table vendedores (
  id_empresa      integer not null references empresas (id_empresa),
  cod_vendedor    integer not null,
  nome            varchar(60) not null,
  email           varchar(100),
  telefone        varchar(20),
  cod_supervisor  integer not null,
  perc_desc_max   numeric(5, 2),
  perc_comissao   numeric(5, 2) not null default 0,
  perc_comissao_flex numeric(5, 2) not null default 0,
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N')),
  primary key (id_empresa, cod_vendedor),
  foreign key (id_empresa, cod_supervisor) references supervisores (id_empresa, cod_supervisor)
);

-- Ceilings per product category (produtos.categoria) for one representative.
create table vendedores_desc_categoria (
  id_empresa      integer not null,
  cod_vendedor    integer not null,
  categoria       varchar(20) not null,
  perc_desc_max   numeric(5, 2) not null,
  primary key (id_empresa, cod_vendedor, categoria),
  foreign key (id_empresa, cod_vendedor) references vendedores (id_empresa, cod_vendedor)
);

create table grupos_produto (
  id_empresa      integer not null references empresas (id_empresa),
  cod_grupo       integer not null,
  descricao       varchar(60) not null,
  primary key (id_empresa, cod_grupo)
);

create table subgrupos_produto (
  id_empresa      integer not null,
  cod_grupo       integer not null,
  cod_subgrupo    integer not null,
  descricao       varchar(60) not null,
  primary key (id_empresa, cod_grupo, cod_subgrupo),
  foreign key (id_empresa, cod_grupo) references grupos_produto (id_empresa, cod_grupo)
);

create table produtos (
  id_produto      integer primary key,
  id_empresa      integer not null references empresas (id_empresa),
  cod_produto     varchar(20) not null,
  descricao       varchar(120) not null,
  unidade         varchar(6) not null,
  categoria       varchar(20) not null,
  cod_grupo       integer not null,
  cod_subgrupo    integer not null,
  ean             char(13),
  peso_kg         numeric(10, 3),
  imagem          varchar(200),
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N')),
  dt_alteracao    timestamp not null default now(),
  unique (id_empresa, cod_produto),
  foreign key (id_empresa, cod_grupo, cod_subgrupo) references subgrupos_produto (id_empresa, cod_grupo, cod_subgrupo)
);

-- Stock on hand per product and company. Optional for Campo: an ERP without it provisions
-- all the same (app.estoque_erp), and products without a row show no stock, not zero.
create table estoque (
  id_empresa      integer not null references empresas (id_empresa),
  -- No foreign key: this ERP keeps stock rows of products it has since deleted.
  id_produto      integer not null,
  quantidade      numeric(14, 3) not null,
  dt_alteracao    timestamp not null default now(),
  primary key (id_empresa, id_produto)
);

-- Fiscal data: what the ERP's tax department keeps for the NF-e. Optional for Campo, like
-- stock (docs/erp-contract.md, "Optional: fiscal data"): an ERP without these tables
-- provisions all the same and Campo shows its prices without taxes. Rates are percents; the
-- ERP does not constrain them (a negative rate is a data error that `campo provision --check`
-- reports).
-- Per product: NCM (8 digits), CEST (7 digits, only for goods under ICMS-ST), origin of the
-- goods (0 national ... 8, the NF-e's orig: 1, 2, 3 and 8 are imported, taxed at 4 %
-- interstate) and the IPI rate.
create table produtos_fiscal (
  id_produto      integer primary key references produtos (id_produto) on delete cascade,
  ncm             char(8) not null,
  cest            char(7),
  origem          smallint not null default 0,
  perc_ipi        numeric(5, 2) not null default 0,
  dt_alteracao    timestamp not null default now()
);

-- Tax rules by NCM (a prefix of 2 to 8 digits; null: every NCM), origin and destination state,
-- and optionally the client's regime (null: any; 'R' ICMS contributor buying for resale, 'S'
-- the same under Simples Nacional, 'C' contributor buying for its own use, 'N' not a
-- contributor). aliq_icms is the operation's rate (the internal one, or the interstate 4, 7 or
-- 12 %); when icms_st is 'S', mva is the original MVA and aliq_icms_st the destination's
-- internal rate; perc_fcp and perc_fcp_st the poverty fund (FCP) rates; perc_red_base the
-- reduction of the ICMS base, in percent.
create table regras_fiscais (
  id_regra        integer primary key,
  id_empresa      integer not null references empresas (id_empresa),
  ncm             varchar(8),
  uf_origem       char(2) not null,
  uf_destino      char(2) not null,
  regime          char(1),
  aliq_icms       numeric(5, 2) not null,
  icms_st         char(1) not null default 'N' check (icms_st in ('S', 'N')),
  mva             numeric(7, 2),
  aliq_icms_st    numeric(5, 2),
  perc_fcp        numeric(5, 2) not null default 0,
  perc_fcp_st     numeric(5, 2) not null default 0,
  perc_red_base   numeric(5, 2) not null default 0,
  dt_alteracao    timestamp not null default now()
);

-- Price lists (pautas) and the price of each product on each list.
create table pautas (
  id_empresa      integer not null references empresas (id_empresa),
  id_pauta        integer not null,
  descricao       varchar(60) not null,
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N')),
  primary key (id_empresa, id_pauta)
);

create table pautas_precos (
  id_empresa      integer not null,
  id_pauta        integer not null,
  id_produto      integer not null references produtos (id_produto),
  preco           numeric(14, 4) not null check (preco >= 0),
  dt_alteracao    timestamp not null default now(),
  primary key (id_empresa, id_pauta, id_produto),
  foreign key (id_empresa, id_pauta) references pautas (id_empresa, id_pauta)
);

-- Payment terms (condicoes de pagamento): every order carries one ('a vista', '28/35/42
-- dias'). dias_prazo is the average term in days, for the ERP's own credit reports.
create table condicoes_pagamento (
  id_empresa      integer not null references empresas (id_empresa),
  id_condicao     integer not null,
  descricao       varchar(60) not null,
  dias_prazo      integer not null default 0,
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N')),
  primary key (id_empresa, id_condicao)
);

-- Corporate entities (corrent): clients (tipo 'C') and suppliers ('F'). Every column
-- declared not null is mandatory for the ERP; trg_cliente_novo must fill them all.
-- situacao 'B' is a manual financial block by the credit department.
create sequence corrent_id_corrent_seq;
create table corrent (
  id_corrent      integer primary key default nextval('corrent_id_corrent_seq'),
  id_empresa      integer not null references empresas (id_empresa),
  tipo            char(1) not null check (tipo in ('C', 'F')),
  tipo_pessoa     char(1) not null check (tipo_pessoa in ('F', 'J')),
  razao_social    varchar(100) not null,
  nome_fantasia   varchar(60) not null,
  cnpj_cpf        varchar(14) not null,
  inscricao_estadual varchar(20) not null,
  endereco        varchar(100) not null,
  numero          varchar(10) not null,
  complemento     varchar(60),
  bairro          varchar(60) not null,
  cidade          varchar(60) not null,
  uf              char(2) not null,
  cep             char(8) not null,
  telefone        varchar(20),
  email           varchar(100),
  cod_vendedor    integer,
  id_pauta        integer,
  situacao        char(1) not null default 'N' check (situacao in ('N', 'B')),
  dt_ultima_compra date,
  dt_cadastro     timestamp not null default now(),
  origem          varchar(10) not null default 'ERP',
  ativo           char(1) not null default 'S' check (ativo in ('S', 'N')),
  id_condicao     integer,
  -- Where the client is (WGS 84 degrees), when the ERP keeps it: optional in the contract.
  latitude        numeric(9, 6),
  longitude       numeric(9, 6),
  unique (id_empresa, tipo, cnpj_cpf),
  foreign key (id_empresa, cod_vendedor) references vendedores (id_empresa, cod_vendedor),
  foreign key (id_empresa, id_pauta) references pautas (id_empresa, id_pauta),
  foreign key (id_empresa, id_condicao) references condicoes_pagamento (id_empresa, id_condicao)
);

-- The client's ICMS regime, for the NF-e (optional, with the other fiscal tables): an ICMS
-- contributor (has a state registration) or not, under Simples Nacional or not, and whether it
-- buys as a final consumer (for its own use) or for resale. A client that is no contributor
-- always buys as a final consumer.
create table corrent_fiscal (
  id_corrent        integer primary key references corrent (id_corrent) on delete cascade,
  contribuinte_icms char(1) not null check (contribuinte_icms in ('S', 'N')),
  simples_nacional  char(1) not null default 'N' check (simples_nacional in ('S', 'N')),
  consumidor_final  char(1) not null default 'N' check (consumidor_final in ('S', 'N'))
);

-- The payment terms a client may buy on, where the credit department restricts them (a
-- client without rows here may use every active term of the company). id_condicao of
-- corrent is the client's default.
create table corrent_condicoes (
  id_corrent      integer not null references corrent (id_corrent),
  id_empresa      integer not null,
  id_condicao     integer not null,
  primary key (id_corrent, id_condicao),
  foreign key (id_empresa, id_condicao) references condicoes_pagamento (id_empresa, id_condicao)
);

-- The days a representative visits a client (the route, roteiro): on a weekday every week, or
-- every intervalo_semanas weeks counted from data_base. Optional in the contract: an ERP
-- without it leaves the plan to Campo's supervisors (docs/visits.md).
create table corrent_visitas (
  id_corrent        integer not null references corrent (id_corrent),
  dia_semana        smallint not null check (dia_semana between 1 and 7),
  intervalo_semanas smallint not null default 1 check (intervalo_semanas between 1 and 8),
  data_base         date,
  primary key (id_corrent, dia_semana)
);

-- Sales orders of the ERP. situacao: 'A' open, 'F' invoiced, 'C' cancelled. Orders that
-- Campo replicates carry origem 'CAMPO' and the service's number in num_ped_sar.
create sequence pedidos_venda_id_pedido_seq;
create table pedidos_venda (
  id_pedido       integer primary key default nextval('pedidos_venda_id_pedido_seq'),
  id_empresa      integer not null references empresas (id_empresa),
  num_pedido      integer not null,
  id_corrent      integer not null references corrent (id_corrent),
  cod_vendedor    integer not null,
  id_pauta        integer,
  dt_emissao      timestamp not null,
  situacao        char(1) not null default 'A' check (situacao in ('A', 'F', 'C')),
  valor_total     numeric(14, 2) not null,
  end_entrega     varchar(200),
  observacao      varchar(500),
  origem          varchar(10) not null default 'ERP',
  num_ped_sar     integer,
  id_condicao     integer,
  unique (id_empresa, num_pedido),
  foreign key (id_empresa, cod_vendedor) references vendedores (id_empresa, cod_vendedor)
);

create table pedidos_venda_itens (
  id_pedido       integer not null references pedidos_venda (id_pedido),
  seq             integer not null,
  id_produto      integer not null references produtos (id_produto),
  quantidade      numeric(14, 3) not null check (quantidade > 0),
  preco_tabela    numeric(14, 4) not null,
  preco_unitario  numeric(14, 4) not null,
  perc_desconto   numeric(5, 2) not null default 0,
  valor_total     numeric(14, 2) not null,
  primary key (id_pedido, seq)
);

-- Invoices (notas fiscais) issued for orders; billing is the value of non-cancelled ones.
create sequence notas_fiscais_id_nota_seq;
create table notas_fiscais (
  id_nota         integer primary key default nextval('notas_fiscais_id_nota_seq'),
  id_empresa      integer not null references empresas (id_empresa),
  num_nota        integer not null,
  serie           varchar(3) not null default '1',
  id_pedido       integer references pedidos_venda (id_pedido),
  id_corrent      integer not null references corrent (id_corrent),
  cod_vendedor    integer not null,
  dt_emissao      date not null,
  valor_total     numeric(14, 2) not null,
  cancelada       char(1) not null default 'N' check (cancelada in ('S', 'N')),
  unique (id_empresa, serie, num_nota)
);

-- The lines of an invoice: what was shipped and billed. An order may be invoiced over several
-- invoices (partial invoicing: the rest ships when stock arrives), each with some of its
-- products and quantities.
create table notas_fiscais_itens (
  id_nota         integer not null references notas_fiscais (id_nota),
  seq             integer not null,
  id_produto      integer not null references produtos (id_produto),
  quantidade      numeric(14, 3) not null check (quantidade > 0),
  valor_unitario  numeric(14, 4) not null,
  valor_total     numeric(14, 2) not null,
  primary key (id_nota, seq)
);

-- Receivables: an unpaid title past its due date makes a client overdue; long-overdue
-- ones block the client (see vw_clientes).
create sequence titulos_receber_id_titulo_seq;
create table titulos_receber (
  id_titulo       integer primary key default nextval('titulos_receber_id_titulo_seq'),
  id_empresa      integer not null references empresas (id_empresa),
  id_corrent      integer not null references corrent (id_corrent),
  id_nota         integer references notas_fiscais (id_nota),
  num_documento   varchar(20) not null,
  dt_emissao      date not null,
  dt_vencimento   date not null,
  valor           numeric(14, 2) not null,
  valor_pago      numeric(14, 2) not null default 0,
  dt_pagamento    date
);
