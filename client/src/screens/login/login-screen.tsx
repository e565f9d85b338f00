import { useSignal } from '@preact/signals';
import type { TargetedSubmitEvent } from 'preact';
import { useLocation } from 'preact-iso';
import { ApiError, errorMessage } from '../../api.ts';
import { homeFor } from '../../routes.ts';
import { endedReason, login } from '../../session/session.ts';

/**
 * The server asks which company (409 LOGIN_COMPANY_REQUIRED): the login exists in more than
 * one. It names none (docs/security.md, "Logins are per tenant"): the person types its code.
 */
const companyAsked = (error: unknown) => error instanceof ApiError && error.code === 'LOGIN_COMPANY_REQUIRED';

/** Problem codes of POST /auth/login put in words a representative understands. */
function loginMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'LOGIN_COMPANY_REQUIRED')
      return 'Este login existe em mais de uma empresa. Informe o código da sua empresa.';
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
  // Shown only when the server asks which company: the code typed is sent with the next try.
  const askCompany = useSignal(false);

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
      if (companyAsked(err)) askCompany.value = true;
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
                askCompany.value = false;
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
          {askCompany.value ? (
            <label for="empresa">
              Código da empresa
              <input
                id="empresa"
                name="empresa"
                type="text"
                inputmode="numeric"
                pattern="[0-9]{1,9}"
                autocomplete="organization"
                required
                aria-describedby="empresa-hint"
              />
              <small id="empresa-hint">Peça o código ao administrador da sua empresa.</small>
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
