// Roteiros: a representative's portfolio with each client's visit days (GET /visit-plans).
// Days Campo keeps are edited here (PUT /visit-plans/{idCliente}); days the ERP keeps are shown
// read-only, "definido no ERP", since the ERP stays the one truth for them (docs/visits.md).
import type { VisitDay } from '@campo/shared';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type ApiError, api, errorMessage } from '../../api.ts';
import { DateField, dateProblem, isIsoDate } from '../../kit/date-field.tsx';
import { FieldError } from '../../kit/field-error.tsx';
import { Pager } from '../../kit/pager.tsx';
import { useApi } from '../../kit/use-api.ts';
import { planText, WEEKDAYS } from '../../kit/visit-format.ts';
import { RepPicker } from './rep-picker.tsx';

const PAGE_SIZE = 25;

/** pt-BR for the refusals a plan may get, by the problem's code; the server's words otherwise. */
export function planProblem(err: unknown): string {
  const code = (err as ApiError | null)?.code;
  if (code === 'VISIT_PLAN_FROM_ERP') return 'Os dias de visita deste cliente vêm do ERP: altere-os no ERP.';
  if (code === 'CLIENT_NOT_IN_PORTFOLIO' || code === 'NOT_FOUND') return 'Este cliente não está mais na sua equipe.';
  if (code === 'FORBIDDEN') return 'Você não pode alterar os dias de visita deste cliente.';
  return errorMessage(err);
}

interface DayRow {
  on: boolean;
  intervalo: number;
  dataBase: string;
}

function rowsOf(dias: readonly VisitDay[]): DayRow[] {
  return WEEKDAYS.map((w) => {
    const d = dias.find((x) => x.diaSemana === w.dia);
    return { on: d !== undefined, intervalo: d?.intervaloSemanas ?? 1, dataBase: d?.dataBase ?? '' };
  });
}

function PlanEditor(props: {
  idCliente: number;
  nome: string;
  dias: readonly VisitDay[];
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [rows, setRows] = useState<DayRow[]>(() => rowsOf(props.dias));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (i: number, change: Partial<DayRow>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...change } : r)));

  const save = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    rows.forEach((r, i) => {
      if (!r.on || r.intervalo <= 1) return;
      const wrong = r.dataBase === '' ? 'Informe a data de uma semana de visita.' : dateProblem(r.dataBase);
      if (wrong) found[`d${i}`] = wrong;
    });
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length > 0) return;
    const dias = rows.flatMap((r, i) =>
      r.on
        ? [
            {
              diaSemana: i + 1,
              intervaloSemanas: r.intervalo,
              dataBase: r.intervalo > 1 && isIsoDate(r.dataBase) ? r.dataBase : null,
            },
          ]
        : [],
    );
    setBusy(true);
    try {
      await api.PUT('/visit-plans/{idCliente}', { params: { path: { idCliente: props.idCliente } }, body: { dias } });
      props.onSaved();
    } catch (err) {
      // A field error names body.dias.N.dataBase: shown under that weekday's date.
      const byDay: Record<string, string> = {};
      for (const fe of (err as ApiError).errors ?? []) {
        const m = /^body\.dias\.(\d+)/.exec(fe.path);
        const sent = m ? dias[Number(m[1])] : undefined;
        if (sent) byDay[`d${sent.diaSemana - 1}`] = fe.message;
      }
      setErrors(byDay);
      setProblem(planProblem(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="plan-editor" onSubmit={save} noValidate aria-label={`Dias de visita de ${props.nome}`}>
      <fieldset>
        <legend>Dias de visita</legend>
        {WEEKDAYS.map((w, i) => {
          const r = rows[i] as DayRow;
          const id = `plano-${props.idCliente}-${w.dia}`;
          return (
            <div class="plan-day" key={w.dia}>
              <label>
                <input type="checkbox" checked={r.on} onChange={(e) => set(i, { on: e.currentTarget.checked })} />
                {w.nome}
              </label>
              {r.on && (
                <>
                  <label>
                    Frequência
                    <select
                      value={String(r.intervalo)}
                      onChange={(e) => set(i, { intervalo: Number(e.currentTarget.value) })}
                    >
                      <option value="1">Toda semana</option>
                      {[2, 3, 4, 5, 6, 7, 8].map((n) => (
                        <option key={n} value={String(n)}>
                          A cada {n} semanas
                        </option>
                      ))}
                    </select>
                  </label>
                  {r.intervalo > 1 && (
                    <label for={id}>
                      A partir da semana de
                      <DateField
                        id={id}
                        value={r.dataBase}
                        onChange={(v) => set(i, { dataBase: v })}
                        aria-invalid={errors[`d${i}`] ? true : undefined}
                        aria-describedby={errors[`d${i}`] ? `${id}-erro` : undefined}
                      />
                      <FieldError id={`${id}-erro`} message={errors[`d${i}`]} />
                    </label>
                  )}
                </>
              )}
            </div>
          );
        })}
      </fieldset>
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
      <div class="mg-actions">
        <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
          Salvar dias
        </button>
        <button type="button" class="secondary outline" onClick={props.onCancel}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

export function PlansView() {
  const { query } = useLocation();
  const rep = Number(query.rep) > 0 ? Number(query.rep) : undefined;
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const plans = useApi(rep ? '/visit-plans' : null, {
    params: { query: { codVendedor: rep, page, pageSize: PAGE_SIZE } },
  });
  const d = plans.data;
  return (
    <>
      <RepPicker tab="roteiros" onPick={() => setPage(1)} />
      {rep === undefined && <p class="mg-muted">Escolha um representante para ver a carteira e os dias de visita.</p>}
      {plans.error && (
        <p role="alert" class="error">
          {plans.error}
        </p>
      )}
      {message && (
        <p role="status" class="mg-success">
          {message}
        </p>
      )}
      {plans.loading && !d && <p aria-busy="true">Carregando a carteira…</p>}
      {d && d.items.length === 0 && <p>Nenhum cliente ativo na carteira.</p>}
      {d && d.items.length > 0 && (
        <ul class="mg-list" aria-label="Dias de visita dos clientes">
          {d.items.map((c) => {
            const nome = c.nome ?? `Cliente ${c.idCliente}`;
            return (
              <li key={c.idCliente}>
                <article class="mg-card plan-card">
                  <div class="mg-row">
                    <strong>{nome}</strong>
                    <span>
                      {planText(c.dias)}
                      {c.origem === 'erp' && (
                        <>
                          {' '}
                          <span class="mg-chip">definido no ERP</span>
                        </>
                      )}
                    </span>
                  </div>
                  {c.origem !== 'erp' && editing !== c.idCliente && (
                    <button
                      type="button"
                      class="secondary outline plan-edit"
                      aria-label={`Editar os dias de visita de ${nome}`}
                      onClick={() => {
                        setMessage(null);
                        setEditing(c.idCliente);
                      }}
                    >
                      Editar dias
                    </button>
                  )}
                  {editing === c.idCliente && (
                    <PlanEditor
                      idCliente={c.idCliente}
                      nome={nome}
                      dias={c.dias}
                      onCancel={() => setEditing(null)}
                      onSaved={() => {
                        setEditing(null);
                        setMessage(`Dias de visita de ${nome} salvos.`);
                        plans.reload();
                      }}
                    />
                  )}
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
