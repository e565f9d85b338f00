import { useSignal } from '@preact/signals';
import type { TargetedSubmitEvent } from 'preact';
import { useLocation } from 'preact-iso';
import { ApiError, errorMessage } from '../../api.ts';
import { homeFor } from '../../routes.ts';
import { endedReason, login } from '../../session/session.ts';

interface Company {
  idEmpresa: number;
  name: string;
}

/** The companies a 409 LOGIN_COMPANY_REQUIRED offers (one login held in several: docs/security.md). */
function companiesOf(error: unknown): Company[] {
  if (!(error instanceof ApiError) || error.code !== 'LOGIN_COMPANY_REQUIRED') return [];
  const list = (error.problem as { companies?: unknown } | undefined)?.companies;
  return Array.isArray(list)
    ? list.filter((c): c is Company => typeof c?.idEmpresa === 'number' && typeof c?.name === 'string')
    : [];
}

/** Problem codes of POST /auth/login put in words a representative understands. */
function loginMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'LOGIN_COMPANY_REQUIRED')
      return 'Este login e senha abrem mais de uma empresa. Escolha em qual entrar.';
    if (error.code === 'INVALID_CREDENTIALS') return 'Login ou senha incorretos. Confira e tente de novo.';
    if (error.code === 'NETWORK_ERROR')
      return 'Sem conexão com o servidor. Para entrar pela primeira vez é preciso sinal.';
    if (error.code === 'VALIDATION_FAILED') return `Confira os dados: ${errorMessage(error)}`;
    if (error.status >= 500) return 'O servidor está com problemas. Tente de novo em instantes.';
  }
  return errorMessage(error);
}

export function LoginScreen() {
  const { route } = useLocation();
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const badField = useSignal<'login' | 'password' | null>(null);
  // Filled only when the server asks which company: the choice is sent with the next try.
  const companies = useSignal<Company[]>([]);

  const submit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    busy.value = true;
    error.value = null;
    badField.value = null;
    const empresa = form.get('empresa');
    try {
      const user = await login(
        String(form.get('login') ?? ''),
        String(form.get('password') ?? ''),
        empresa ? Number(empresa) : undefined,
      );
      route(homeFor(user.role), true);
    } catch (err) {
      error.value = loginMessage(err);
      const offered = companiesOf(err);
      if (offered.length > 0) companies.value = offered;
      if (err instanceof ApiError) {
        const path = err.errors[0]?.path ?? '';
        badField.value = path.endsWith('password') ? 'password' : path.endsWith('login') ? 'login' : null;
      }
    } finally {
      busy.value = false;
    }
  };

  return (
    <main class="container login">
      <article>
        <header>
          <h1>Campo</h1>
          <p>Entre com o login e a senha que a empresa lhe deu.</p>
        </header>
        {endedReason.value && !error.value ? (
          <p role="status" class="notice">
            {endedReason.value}
          </p>
        ) : null}
        <form onSubmit={submit} aria-describedby={error.value ? 'login-error' : undefined}>
          <label for="login">
            Login
            <input
              id="login"
              name="login"
              type="text"
              autocomplete="username"
              autocapitalize="none"
              spellcheck={false}
              required
              onInput={() => {
                companies.value = [];
              }}
              aria-invalid={badField.value === 'login' ? 'true' : undefined}
            />
          </label>
          <label for="password">
            Senha
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="current-password"
              required
              aria-invalid={badField.value === 'password' ? 'true' : undefined}
            />
          </label>
          {companies.value.length > 0 ? (
            <label for="empresa">
              Empresa
              <select id="empresa" name="empresa" required>
                {companies.value.map((c) => (
                  <option key={c.idEmpresa} value={c.idEmpresa}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {error.value ? (
            <p id="login-error" role="alert" class="error">
              {error.value}
            </p>
          ) : null}
          <button type="submit" aria-busy={busy.value ? 'true' : undefined} disabled={busy.value}>
            {busy.value ? 'Entrando…' : 'Entrar'}
          </button>
        </form>
      </article>
    </main>
  );
}
