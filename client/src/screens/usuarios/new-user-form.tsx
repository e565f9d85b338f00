import type { Role, UserView } from '@campo/shared';
import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { fieldMessages, useApi } from '../../kit/use-api.ts';

const ROLES: { value: Role; label: string }[] = [
  { value: 'representative', label: 'Representante' },
  { value: 'supervisor', label: 'Supervisor' },
  { value: 'manager', label: 'Gerente' },
  { value: 'admin', label: 'Administrador' },
];

export function NewUserForm(props: { onCreated: (u: UserView) => void; onCancel: () => void }) {
  const reps = useApi('/vendedores');
  const sups = useApi('/supervisores');
  const [form, setForm] = useState({
    login: '',
    name: '',
    role: 'representative' as Role,
    codVendedor: '',
    codSupervisor: '',
    password: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form, value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFormError(null);
    setErrors({});
    try {
      const created = await api.POST('/usuarios', {
        body: {
          login: form.login,
          name: form.name,
          role: form.role,
          codVendedor: form.role === 'representative' && form.codVendedor ? Number(form.codVendedor) : null,
          codSupervisor: form.role === 'supervisor' && form.codSupervisor ? Number(form.codSupervisor) : null,
          password: form.password,
        },
      });
      props.onCreated(created);
    } catch (err) {
      // Everything typed stays; each field the API refused says why under it.
      const fields = fieldMessages(err);
      setErrors(fields);
      setFormError(Object.keys(fields).length ? 'Corrija os campos marcados.' : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const err = (key: string) =>
    errors[key] ? (
      <small id={`erro-${key}`} class="error">
        {errors[key]}
      </small>
    ) : null;
  const aria = (key: string) => (errors[key] ? { 'aria-invalid': true, 'aria-describedby': `erro-${key}` } : {});

  return (
    <article aria-labelledby="novo-usuario">
      <h2 id="novo-usuario">Novo usuário</h2>
      <form onSubmit={submit} noValidate>
        <label>
          Nome
          <input
            value={form.name}
            maxLength={100}
            onInput={(e) => set('name', e.currentTarget.value)}
            {...aria('name')}
          />
          {err('name')}
        </label>
        <label>
          Login (e-mail)
          <input
            value={form.login}
            autoComplete="off"
            autoCapitalize="none"
            maxLength={100}
            onInput={(e) => set('login', e.currentTarget.value)}
            {...aria('login')}
          />
          {err('login')}
        </label>
        <label>
          Perfil
          <select value={form.role} onChange={(e) => set('role', e.currentTarget.value)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        {form.role === 'representative' && (
          <label>
            Vendedor no ERP
            <select
              value={form.codVendedor}
              onChange={(e) => set('codVendedor', e.currentTarget.value)}
              {...aria('codVendedor')}
            >
              <option value="">Escolha…</option>
              {(reps.data?.items ?? []).map((r) => (
                <option key={r.codVendedor} value={r.codVendedor}>
                  {r.nome ?? 'Sem nome'} ({r.codVendedor})
                </option>
              ))}
            </select>
            {err('codVendedor')}
          </label>
        )}
        {form.role === 'supervisor' && (
          <label>
            Supervisor no ERP
            <select
              value={form.codSupervisor}
              onChange={(e) => set('codSupervisor', e.currentTarget.value)}
              {...aria('codSupervisor')}
            >
              <option value="">Escolha…</option>
              {(sups.data?.items ?? []).map((s) => (
                <option key={s.codSupervisor} value={s.codSupervisor}>
                  {s.nome ?? 'Sem nome'} ({s.codSupervisor})
                </option>
              ))}
            </select>
            {err('codSupervisor')}
          </label>
        )}
        <label>
          Senha inicial
          <input
            type="password"
            autoComplete="new-password"
            value={form.password}
            onInput={(e) => set('password', e.currentTarget.value)}
            {...aria('password')}
          />
          {err('password') ?? <small>Pelo menos 8 caracteres. Entregue-a à pessoa por um canal seguro.</small>}
        </label>
        {formError && (
          <p role="alert" class="error">
            {formError}
          </p>
        )}
        <div class="mg-actions">
          <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
            Criar usuário
          </button>
          <button type="button" class="secondary outline" onClick={props.onCancel}>
            Cancelar
          </button>
        </div>
      </form>
    </article>
  );
}
