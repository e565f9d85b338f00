export function NoAccessScreen(props: { home: string }) {
  return (
    <section>
      <h1>Sem acesso</h1>
      <p>Seu perfil não permite abrir esta tela.</p>
      <p>
        <a href={props.home}>Voltar ao início</a>
      </p>
    </section>
  );
}
