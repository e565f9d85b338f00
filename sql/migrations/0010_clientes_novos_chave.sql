-- 0010: a client registered offline carries the device's id (POST /clients, collection
-- cadastros), so a registration sent twice creates one ERP client.
alter table app.clientes_novos add column chave text;
create unique index clientes_novos_chave_key on app.clientes_novos (id_empresa, chave) where chave is not null;
create index clientes_novos_documento_idx on app.clientes_novos (id_empresa, cnpj_cpf);
