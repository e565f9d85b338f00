export function PlaceholderScreen(props: { title: string }) {
  return (
    <section>
      <h1>{props.title}</h1>
      <article>
        <p>
          <strong>Em construção.</strong> Esta tela ainda está sendo feita.
        </p>
      </article>
    </section>
  );
}
