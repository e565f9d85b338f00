-- Second reference ERP: the subset of an Odoo-like ERP (Odoo 16/17 with a Brazilian
-- localisation and a few x_ extension columns an integrator added) that Campo's odoo profile
-- reads and writes. Modeled on Odoo's own models (base res_partner/res_company/res_users,
-- product, product pricelist, sale, account, stock, crm_team), not on the first reference
-- ERP: other table and column names, one partner table for clients and suppliers, prices per
-- list in a long table with validity dates, order names from ir_sequence, flags as booleans
-- and 'S'/'N', a date as text. Campo never creates these in a client's database:
-- `campo erp-fixture --profile odoo` uses this file to build a demo or test ERP.
-- docs/erp-profile-odoo.md explains the mapping.

-- Brazilian states (res_country_state): addresses point here, Campo shows the code.
create table res_country_state (
  id              integer primary key,
  code            varchar(3) not null,
  name            varchar(60) not null
);

-- Companies: a branch points to its head office through parent_id.
create table res_company (
  id              integer primary key,
  parent_id       integer references res_company (id),
  name            varchar(100) not null,
  x_nome_fantasia varchar(60),
  vat             varchar(18),
  company_registry varchar(20),
  street          varchar(100),
  city            varchar(60),
  state_id        integer references res_country_state (id),
  zip             varchar(9),
  phone           varchar(20),
  active          boolean not null default true
);

-- Every person and company the ERP knows: clients (customer_rank > 0), suppliers
-- (supplier_rank > 0) and the users' own contacts (both 0). vat is the CNPJ or CPF as typed
-- (with punctuation), zip the CEP with its dash. Campo's extensions: x_bloqueio_financeiro
-- ('S' blocks the client), x_data_ultima_compra (text, DD/MM/YYYY, migrated from the old
-- system), x_origem.
create sequence res_partner_id_seq;
create table res_partner (
  id              integer primary key default nextval('res_partner_id_seq'),
  name            varchar(100) not null,
  x_nome_fantasia varchar(60),
  company_id      integer references res_company (id),
  is_company      boolean not null default false,
  customer_rank   integer not null default 0,
  supplier_rank   integer not null default 0,
  vat             varchar(18),
  l10n_br_ie_code varchar(20),
  street          varchar(100),
  street_number   varchar(10),
  street2         varchar(60),
  l10n_br_district varchar(60),
  city            varchar(60),
  state_id        integer references res_country_state (id),
  zip             varchar(9),
  phone           varchar(20),
  email           varchar(100),
  user_id         integer,
  property_product_pricelist integer,
  property_payment_term_id integer,
  partner_latitude  numeric(10, 7),
  partner_longitude numeric(10, 7),
  x_bloqueio_financeiro char(1) not null default 'N' check (x_bloqueio_financeiro in ('S', 'N')),
  x_data_ultima_compra varchar(10),
  x_origem        varchar(10) not null default 'ERP',
  active          boolean not null default true,
  create_date     timestamp not null default now(),
  write_date      timestamp not null default now()
);

-- Users: the salespeople (reps) and the team leaders (supervisors) log into the ERP; their
-- name, email and phone are on their partner.
create table res_users (
  id              integer primary key,
  login           varchar(100) not null unique,
  partner_id      integer not null references res_partner (id),
  company_id      integer not null references res_company (id),
  share           boolean not null default false,
  active          boolean not null default true
);

-- Sales teams: a supervisor is a team's leader (user_id); its salespeople are members.
create table crm_team (
  id              integer primary key,
  name            varchar(60) not null,
  company_id      integer references res_company (id),
  user_id         integer references res_users (id),
  active          boolean not null default true
);

create table crm_team_member (
  id              integer primary key,
  crm_team_id     integer not null references crm_team (id),
  user_id         integer not null references res_users (id),
  active          boolean not null default true
);

-- Campo-specific data Odoo lacks, as an integrator adds it: a salesperson's discount ceiling
-- (null: none set) and commission rates in percent, and ceilings per product category.
create table x_campo_vendedor (
  user_id         integer primary key references res_users (id),
  perc_desc_max   numeric(5, 2),
  perc_comissao   numeric(5, 2) not null default 0,
  perc_comissao_flex numeric(5, 2) not null default 0
);

create table x_campo_vendedor_categoria (
  user_id         integer not null references res_users (id),
  categ_id        integer not null,
  perc_desc_max   numeric(5, 2) not null,
  primary key (user_id, categ_id)
);

-- Product categories, a tree through parent_id: a root per discount category (its name is
-- the category's code), a group under it, a subgroup under the group. Groups belong to a
-- company (company_id, a customisation many multi-company installs make).
create table product_category (
  id              integer primary key,
  name            varchar(60) not null,
  complete_name   varchar(200),
  parent_id       integer references product_category (id),
  company_id      integer references res_company (id)
);

create table uom_uom (
  id              integer primary key,
  name            varchar(20) not null
);

-- Products: a template (name, category, unit) and its variant (code, barcode). Campo sells
-- variants; this ERP has one variant per template.
create table product_template (
  id              integer primary key,
  name            varchar(120) not null,
  categ_id        integer not null references product_category (id),
  uom_id          integer not null references uom_uom (id),
  company_id      integer references res_company (id),
  weight          numeric(10, 3),
  x_imagem_url    varchar(200),
  active          boolean not null default true,
  write_date      timestamp not null default now()
);

create table product_product (
  id              integer primary key,
  product_tmpl_id integer not null references product_template (id),
  default_code    varchar(20),
  barcode         varchar(14),
  active          boolean not null default true,
  write_date      timestamp not null default now()
);

-- Stock: quantities per product and location; only internal locations are on hand.
create table stock_location (
  id              integer primary key,
  name            varchar(60) not null,
  usage           varchar(20) not null,
  company_id      integer references res_company (id)
);

create sequence stock_quant_id_seq;
create table stock_quant (
  id              integer primary key default nextval('stock_quant_id_seq'),
  product_id      integer not null,
  location_id     integer not null references stock_location (id),
  company_id      integer references res_company (id),
  quantity        numeric(14, 3) not null default 0
);

-- Price lists and their items, one row per product and validity period: a price is in force
-- from date_start to date_end (null: open), and the item starting last wins.
create table product_pricelist (
  id              integer primary key,
  name            varchar(60) not null,
  company_id      integer references res_company (id),
  active          boolean not null default true
);

create sequence product_pricelist_item_id_seq;
create table product_pricelist_item (
  id              integer primary key default nextval('product_pricelist_item_id_seq'),
  pricelist_id    integer not null references product_pricelist (id),
  applied_on      varchar(20) not null default '0_product_variant',
  product_id      integer references product_product (id),
  compute_price   varchar(10) not null default 'fixed',
  fixed_price     numeric(14, 4),
  date_start      timestamp,
  date_end        timestamp,
  write_date      timestamp not null default now()
);

-- Payment terms. x_campo_partner_payment_term restricts a client to some of them (a client
-- without rows may use every active one); the client's default is
-- res_partner.property_payment_term_id.
create table account_payment_term (
  id              integer primary key,
  name            varchar(60) not null,
  company_id      integer references res_company (id),
  active          boolean not null default true
);

create table x_campo_partner_payment_term (
  partner_id      integer not null references res_partner (id),
  payment_term_id integer not null references account_payment_term (id),
  primary key (partner_id, payment_term_id)
);

-- The days a salesperson visits a client (ISO weekday; every intervalo_semanas weeks from
-- data_base), an extension table.
create table x_campo_visita (
  partner_id        integer not null references res_partner (id),
  dia_semana        smallint not null check (dia_semana between 1 and 7),
  intervalo_semanas smallint not null default 1,
  data_base         date,
  primary key (partner_id, dia_semana)
);

-- Fiscal data, optional in Campo's contract. Odoo's own Brazilian localisation keeps the NCM
-- and origin on the product and the regime on the partner, in its localisation modules, and
-- computes the taxes through an external service, so no tax rule is in its database (OCA's
-- l10n_br_fiscal keeps its own tables). This Odoo-shaped ERP has none of those modules: the
-- integrator's extension tables below hold what Campo reads, with Odoo's conventions (codes
-- with their dots, booleans, states as res_country_state, datetimes as write_date).
create table x_campo_produto_fiscal (
  product_tmpl_id integer primary key references product_template (id) on delete cascade,
  ncm             varchar(10) not null,
  cest            varchar(9),
  origem          varchar(1) not null default '0',
  ipi_percent     numeric(5, 2) not null default 0,
  write_date      timestamp not null default now()
);

create table x_campo_partner_fiscal (
  partner_id        integer primary key references res_partner (id) on delete cascade,
  contribuinte_icms boolean not null,
  simples_nacional  boolean not null default false,
  consumidor_final  boolean not null default false
);

-- regime: 'resale', 'simples', 'final_consumer', 'non_contributor', or null for any client.
create table x_campo_regra_fiscal (
  id                     integer primary key,
  company_id             integer not null references res_company (id),
  ncm                    varchar(10),
  state_from_id          integer not null references res_country_state (id),
  state_to_id            integer not null references res_country_state (id),
  regime                 varchar(20),
  icms_percent           numeric(5, 2) not null,
  icms_st                boolean not null default false,
  mva_percent            numeric(7, 2),
  icms_st_percent        numeric(5, 2),
  fcp_percent            numeric(5, 2) not null default 0,
  fcp_st_percent         numeric(5, 2) not null default 0,
  base_reduction_percent numeric(5, 2) not null default 0,
  write_date             timestamp not null default now()
);

-- Numbering: sale orders take their name from the 'sale.order' sequence of their company
-- (no gaps: the row is locked and number_next moved on).
create table ir_sequence (
  id              integer primary key,
  name            varchar(60) not null,
  code            varchar(60) not null,
  company_id      integer references res_company (id),
  implementation  varchar(10) not null default 'no_gap',
  prefix          varchar(20),
  padding         integer not null default 5,
  number_next     integer not null default 1,
  number_increment integer not null default 1,
  active          boolean not null default true
);

-- Sale orders. state: draft, sent, sale (confirmed), done, cancel; invoice_status: no,
-- to invoice, invoiced. Orders from Campo carry origin 'CAMPO' and Campo's number in
-- client_order_ref (the customer's reference, text).
create sequence sale_order_id_seq;
create table sale_order (
  id              integer primary key default nextval('sale_order_id_seq'),
  name            varchar(20) not null,
  company_id      integer not null references res_company (id),
  partner_id      integer not null references res_partner (id),
  user_id         integer references res_users (id),
  team_id         integer references crm_team (id),
  pricelist_id    integer references product_pricelist (id),
  payment_term_id integer references account_payment_term (id),
  date_order      timestamp not null,
  state           varchar(10) not null default 'draft',
  invoice_status  varchar(12) not null default 'no',
  amount_untaxed  numeric(14, 2) not null default 0,
  amount_total    numeric(14, 2) not null default 0,
  origin          varchar(60),
  client_order_ref varchar(60),
  note            text,
  x_endereco_entrega varchar(200),
  create_date     timestamp not null default now(),
  unique (company_id, name)
);

create sequence sale_order_line_id_seq;
create table sale_order_line (
  id              integer primary key default nextval('sale_order_line_id_seq'),
  order_id        integer not null references sale_order (id),
  sequence        integer not null default 10,
  product_id      integer not null references product_product (id),
  name            text not null,
  product_uom_qty numeric(14, 3) not null,
  price_unit      numeric(14, 4) not null,
  discount        numeric(5, 2) not null default 0,
  price_reduce    numeric(14, 4) not null,
  price_subtotal  numeric(14, 2) not null,
  company_id      integer references res_company (id)
);

-- Journal entries: customer invoices (move_type out_invoice) and other entries; state
-- draft, posted or cancel. invoice_origin names the sale order (its name). The Brazilian
-- localisation numbers the NF-e (x_nf_numero, x_nf_serie).
create sequence account_move_id_seq;
create table account_move (
  id              integer primary key default nextval('account_move_id_seq'),
  name            varchar(40) not null,
  move_type       varchar(20) not null default 'entry',
  state           varchar(10) not null default 'draft',
  company_id      integer not null references res_company (id),
  partner_id      integer references res_partner (id),
  invoice_user_id integer references res_users (id),
  invoice_date    date,
  date            date not null,
  invoice_origin  varchar(60),
  amount_total    numeric(14, 2) not null default 0,
  x_nf_numero     integer,
  x_nf_serie      varchar(3)
);

-- Journal items: an invoice's product lines (display_type 'product') and its receivable
-- instalments (account_type 'asset_receivable', one per due date, amount_residual what is
-- still owed) share this table.
create sequence account_move_line_id_seq;
create table account_move_line (
  id              integer primary key default nextval('account_move_line_id_seq'),
  move_id         integer not null references account_move (id),
  company_id      integer not null references res_company (id),
  partner_id      integer references res_partner (id),
  display_type    varchar(20),
  account_type    varchar(30),
  name            varchar(120),
  product_id      integer references product_product (id),
  quantity        numeric(14, 3),
  price_unit      numeric(14, 4),
  price_subtotal  numeric(14, 2),
  date            date not null,
  date_maturity   date,
  debit           numeric(14, 2) not null default 0,
  credit          numeric(14, 2) not null default 0,
  amount_residual numeric(14, 2) not null default 0,
  reconciled      boolean not null default false
);

-- Payments matched against receivable lines: the line is paid on the latest max_date.
create sequence account_partial_reconcile_id_seq;
create table account_partial_reconcile (
  id              integer primary key default nextval('account_partial_reconcile_id_seq'),
  debit_move_id   integer not null references account_move_line (id),
  amount          numeric(14, 2) not null,
  max_date        date not null
);
