// Posições a confirmar: clients without a known position whose first check-in with a location
// proposed one (GET /visit-positions). Confirming it (POST /visits/{id}/confirm-position) makes
// it the client's position: later check-ins are measured against it, earlier ones too.

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type ApiError, api, errorMessage } from '../../api.ts';
import { Pager } from '../../kit/pager.tsx';
import { useRepName } from '../../kit/rep-name.ts';
import { useApi } from '../../kit/use-api.ts';
import { positionText } from '../../kit/visit-format.ts';
import { RepPicker } from './rep-picker.tsx';

const PAGE_SIZE = 25;

function positionProblem(err: unknown): string {
  if ((err as ApiError | null)?.code === 'VISIT_PLAN_FROM_ERP')
    return 'A posição deste cliente vem do ERP: altere-a no ERP.';
  return errorMessage(err);
}

export function PositionsView() {
  const { query } = useLocation();
  const rep = Number(query.rep) > 0 ? Number(query.rep) : undefined;
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const repName = useRepName();
  const list = useApi('/visit-positions', { params: { query: { codVendedor: rep, page, pageSize: PAGE_SIZE } } });
  const d = list.data;

  const confirm = async (visita: string, nome: string) => {
    setBusy(visita);
    setMessage(null);
    setProblem(null);
    try {
      await api.POST('/visits/{id}/confirm-position', { params: { path: { id: visita } } });
      setMessage(`Posição de ${nome} confirmada. As visitas a este cliente passam a medir a distância até ela.`);
      list.reload();
    } catch (err) {
      setProblem(positionProblem(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <p class="mg-muted">
        Clientes sem posição conhecida recebem a do primeiro check-in com localização. Confirme quando a posição estiver
        certa: as distâncias das visitas passam a contar a partir dela.
      </p>
      <RepPicker tab="posicoes" optional onPick={() => setPage(1)} />
      {list.error && (
        <p role="alert" class="error">
          {list.error}
        </p>
      )}
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
      {message && (
        <p role="status" class="mg-success">
          {message}
        </p>
      )}
      {list.loading && !d && <p aria-busy="true">Carregando as posições…</p>}
      {d && d.items.length === 0 && <p>Nenhuma posição esperando confirmação.</p>}
      {d && d.items.length > 0 && (
        <ul class="mg-list" aria-label="Posições a confirmar">
          {d.items.map((p) => {
            const nome = p.nome ?? `Cliente ${p.idCliente}`;
            return (
              <li key={p.idCliente}>
                <article class="mg-card">
                  <div class="mg-row">
                    <strong>{nome}</strong>
                    <span class="mg-muted">{p.codVendedor !== null ? repName(p.codVendedor) : ''}</span>
                  </div>
                  <div class="mg-row">
                    <span>Posição proposta: {positionText(p.posicao)}</span>
                    {p.visita && (
                      <button
                        type="button"
                        class="position-confirm"
                        disabled={busy !== null}
                        aria-busy={busy === p.visita ? 'true' : undefined}
                        aria-label={`Confirmar a posição de ${nome}`}
                        onClick={() => p.visita && confirm(p.visita, nome)}
                      >
                        Confirmar posição
                      </button>
                    )}
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
      {d && <Pager page={d.page} pageSize={d.pageSize} total={d.total} onPage={setPage} />}
    </>
  );
}
