-- 0016: a login is unique within its tenant, no longer across tenants (issue 38). With one
-- global namespace, an admin creating a login learnt whether another company already held it
-- (409 against 201). Two companies may now each have "joao"; POST /auth/login finds every
-- active candidate for the login and checks the password against each, and asks for the
-- company only when the same password opens more than one (docs/security.md). Logins are
-- stored lower-case (usuarios_login_minusculo), so the pair needs no lower().
alter table app.usuarios drop constraint usuarios_login_key;
alter table app.usuarios add constraint usuarios_empresa_login_key unique (id_empresa, login);
-- The login screen knows no tenant: it looks a login up across tenants.
create index usuarios_login_idx on app.usuarios (login);
