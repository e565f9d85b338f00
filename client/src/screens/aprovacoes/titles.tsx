// The client's open titles in the supervisor's review (GET /clients/{id}/titles, online like
// the review): the boletos behind "Com títulos vencidos", the most overdue first.
import { brl } from '../../kit/format.ts';
import { dueText } from '../../kit/invoices.tsx';
import { useApi } from '../../kit/use-api.ts';

/** Enough to judge an order; the total says how many more there are. */
const SHOWN = 10;

export function OpenTitles(props: { idCliente: number }) {
  const { data, error } = useApi('/clients/{id}/titles', {
    params: { path: { id: props.idCliente }, query: { status: 'open', pageSize: SHOWN } },
  });
  if (error) return <p class="error">Títulos indisponíveis: {error}</p>;
  if (!data) return <p aria-busy="true">Carregando os títulos…</p>;
  if (data.total === 0) return <p class="mg-muted">Nenhum título em aberto.</p>;
  return (
    <section aria-labelledby="titulos-titulo">
      <h3 id="titulos-titulo">Títulos do cliente</h3>
      <ul>
        {data.items.map((t) => (
          <li key={t.id} class={t.diasAtraso > 0 ? 'error' : undefined}>
            {t.documento} · {brl(t.emAberto)} · {dueText(t)}
          </li>
        ))}
      </ul>
      {data.total > data.items.length && <p class="mg-muted">e mais {data.total - data.items.length}.</p>}
    </section>
  );
}
