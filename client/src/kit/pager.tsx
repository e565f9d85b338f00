/** Previous/next for a paginated list; says where the person is for screen readers too. */
export function Pager(props: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
  if (pages <= 1) return null;
  return (
    <nav class="mg-pager" aria-label="Paginação">
      <button
        type="button"
        class="secondary outline"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        Anterior
      </button>
      <span>
        Página {props.page} de {pages}
      </span>
      <button
        type="button"
        class="secondary outline"
        disabled={props.page >= pages}
        onClick={() => props.onPage(props.page + 1)}
      >
        Próxima
      </button>
    </nav>
  );
}
