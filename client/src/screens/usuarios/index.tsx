// Usuários (admins): the logins of the company: list and search, create, disable or enable,
// and reset a password. The API keeps each admin inside their own company and applies the
// same rules as the `campo user` CLI.
import type { Role, UserView } from '@campo/shared';
import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import '../../kit/kit.css';
import { Pager } from '../../kit/pager.tsx';
import { useApi } from '../../kit/use-api.ts';
import { currentUser } from '../../session/session.ts';
import { NewUserForm } from './new-user-form.tsx';
import './usuarios.css';

export const ROLE_LABEL: Record<Role, string> = {
  representative: 'Representante',
  supervisor: 'Supervisor',
  manager: 'Gerente',
  admin: 'Administrador',
};

function PasswordReset(props: { user: UserView; onDone: (message: string) => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (password.length < 8) {
      setError('A senha precisa de pelo menos 8 caracteres.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.PUT('/usuarios/{id}/senha', { params: { path: { id: props.user.id } }, body: { password } });
      props.onDone(`Senha de ${props.user.login} trocada. As sessões abertas dele foram encerradas.`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="reset-form" onSubmit={submit} noValidate>
      <label>
        Nova senha para {props.user.login}
        <input
          type="password"
          autoComplete="new-password"
          minLength={8}
          value={password}
          aria-invalid={error ? true : undefined}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="mg-actions">
        <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
          Salvar senha
        </button>
        <button type="button" class="secondary outline" onClick={props.onCancel}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

function UserCard(props: { user: UserView; onChanged: (message: string) => void }) {
  const u = props.user;
  const [resetting, setResetting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const self = currentUser.value?.id === u.id;

  const toggle = async () => {
    if (u.active && !confirm(`Desativar ${u.login}? A pessoa sai de todos os aparelhos.`)) return;
    setBusy(true);
    setError(null);
    try {
      await api.PUT('/usuarios/{id}/ativo', { params: { path: { id: u.id } }, body: { active: !u.active } });
      props.onChanged(u.active ? `${u.login} foi desativado.` : `${u.login} foi reativado.`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article class="mg-card user-card" aria-label={u.name}>
      <div class="mg-row">
        <strong>{u.name}</strong>
        <span class={`mg-chip ${u.active ? 'ok' : 'bad'}`}>{u.active ? 'Ativo' : 'Desativado'}</span>
      </div>
      <p class="mg-muted">
        {u.login} · {ROLE_LABEL[u.role]}
        {u.codVendedor !== null && ` · vendedor ${u.codVendedor}`}
        {u.codSupervisor !== null && ` · supervisor ${u.codSupervisor}`}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {resetting ? (
        <PasswordReset
          user={u}
          onCancel={() => setResetting(false)}
          onDone={(m) => {
            setResetting(false);
            props.onChanged(m);
          }}
        />
      ) : (
        <div class="mg-actions">
          <button type="button" class="secondary outline small" onClick={() => setResetting(true)}>
            Trocar senha<span class="visually-hidden"> de {u.login}</span>
          </button>
          {!self && (
            <button
              type="button"
              class={u.active ? 'contrast outline small' : 'small'}
              disabled={busy}
              aria-busy={busy ? 'true' : undefined}
              onClick={() => void toggle()}
            >
              {u.active ? 'Desativar' : 'Reativar'}
              <span class="visually-hidden"> {u.login}</span>
            </button>
          )}
        </div>
      )}
    </article>
  );
}

export default function UsersScreen() {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const { data, error, loading, reload } = useApi('/usuarios', {
    params: { query: { page, pageSize: 20, q: applied || undefined } },
  });

  const changed = (m: string) => {
    setMessage(m);
    reload();
  };

  return (
    <section aria-labelledby="usuarios-titulo">
      <h1 id="usuarios-titulo">Usuários</h1>
      {/* A login that another company also holds needs this code to enter (docs/security.md). */}
      <p class="mg-muted">
        Código da empresa: <strong>{currentUser.value?.idEmpresa}</strong>. O Campo o pede ao entrar quando o login
        também existe em outra empresa.
      </p>
      {message && (
        <p role="status" class="mg-success">
          {message}
        </p>
      )}
      {creating ? (
        <NewUserForm
          onCancel={() => setCreating(false)}
          onCreated={(u) => {
            setCreating(false);
            changed(`${u.login} foi criado.`);
          }}
        />
      ) : (
        <button type="button" class="new-user" onClick={() => setCreating(true)}>
          Novo usuário
        </button>
      )}
      <form
        aria-label="Buscar usuários"
        class="user-search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(search.trim());
          setPage(1);
        }}
      >
        <label>
          Buscar por nome ou login
          <input type="search" value={search} maxLength={100} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <button type="submit" class="secondary">
          Buscar
        </button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando usuários…</p>}
      {data && data.items.length === 0 && <p>Nenhum usuário encontrado.</p>}
      {data && (
        <ul class="mg-list" aria-label="Usuários">
          {data.items.map((u) => (
            <li key={u.id}>
              <UserCard user={u} onChanged={changed} />
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}
    </section>
  );
}
