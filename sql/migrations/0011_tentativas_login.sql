-- 0011: failed logins, per login and client address, so password guessing is slowed down
-- whichever server process answers (docs/security.md). One row per key, reset when its window
-- has passed or a login succeeds. No tenant: a login attempt has none yet.
create table app.tentativas_login (
  chave         text primary key,
  falhas        integer not null,
  janela_inicio timestamptz not null
);
comment on table app.tentativas_login is 'Campo: failed login attempts per login and address (rate limit).';
