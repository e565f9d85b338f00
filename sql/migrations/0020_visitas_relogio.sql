-- 0020: a visit's times against the server's clock (docs/visits.md, "The device's clock").
--
-- Why: a phone's clock may be years off (1999 after a flat battery, 2099 set by hand). A time
-- outside the window the server believes (shared/src/device-time.ts) is replaced by the
-- server's, and the device's own is kept here, so nothing it sent is lost and the
-- supervisor sees which times were the server's. A visit left open with such a time, or open
-- for longer than a phone holds its visits, is closed by the server at the representative's
-- next check-in (saida_automatica), so it never blocks the next visit; a check-out the phone
-- sends later still closes it with its reason.
alter table app.visitas add column if not exists entrada_aparelho_em timestamptz;
alter table app.visitas add column if not exists saida_aparelho_em timestamptz;
alter table app.visitas add column if not exists saida_automatica boolean not null default false;

comment on column app.visitas.entrada_aparelho_em is
  'Campo: the device''s check-in time when it was outside the window and the server''s replaced it; null otherwise.';
comment on column app.visitas.saida_aparelho_em is
  'Campo: the device''s check-out time when it was outside the window, or before the check-in, and was replaced; null otherwise.';
comment on column app.visitas.saida_automatica is
  'Campo: closed by the server (left open with a time outside the window); a check-out from the device still closes it.';
