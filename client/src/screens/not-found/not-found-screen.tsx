export function NotFoundScreen(props: { home: string }) {
  return (
    <section>
      <h1>Página não encontrada</h1>
      <p>O endereço aberto não existe no Campo.</p>
      <p>
        <a href={props.home}>Voltar ao início</a>
      </p>
    </section>
  );
}
