-- 0019: the ERP profile Campo was provisioned with (docs/provisioning.md, "ERP profiles").
--
-- Why: the views, ERP-reading functions, triggers and ERP indexes come from a profile (the
-- reference ERP's, 'referencia', or one under sql/erp-profiles/). A later `campo provision`
-- (an upgrade) must keep the profile an operator chose with --profile rather than fall back
-- to the reference and fail on the ERP's tables; only naming another profile changes it.
-- One row at most: the key is always true.
create table app.perfil_erp (
  unico        boolean primary key default true check (unico),
  perfil       text not null check (perfil ~ '^[a-z][a-z0-9_-]*$'),
  definido_em  timestamptz not null default now()
);

comment on table app.perfil_erp is 'Campo: the ERP profile whose views and triggers provisioning installed (one row).';
