import { currentUser } from '../../session/session.ts';

const ROLE_NAMES = {
  representative: 'Representante',
  supervisor: 'Supervisor',
  manager: 'Gerente',
  admin: 'Administrador',
} as const;

/** The dashboard's place: issue 8 fills it with the day's figures. */
export function HomeScreen() {
  const user = currentUser.value;
  if (!user) return null;
  return (
    <section>
      <h1>Início</h1>
      <p>
        Olá, <strong>{user.name}</strong>. Você entrou como {ROLE_NAMES[user.role].toLowerCase()}.
      </p>
      <article>
        <p>O painel do dia aparecerá aqui: pedidos, metas e avisos.</p>
      </article>
    </section>
  );
}
