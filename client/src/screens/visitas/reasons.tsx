// Motivos de não venda (managers): the tenant's list a representative picks from when a visit
// ends without an order (GET/POST /visit-reasons, PATCH /visit-reasons/{id}). A reason is
// renamed, asks a photo or a note, and is deactivated, never deleted: past visits name it.
import type { VisitReason } from '@campo/shared';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { FieldError } from '../../kit/field-error.tsx';
import { fieldMessages, useApi } from '../../kit/use-api.ts';

const TEXT_MAX = 60;

interface Fields {
  descricao: string;
  exigeFoto: boolean;
  exigeObservacao: boolean;
}

/** A reason's text and what it requires: the same fields to edit one and to add one. */
function ReasonFields(props: {
  id: string;
  /** The text's label, hidden on a desk for a listed reason (its value says what it is). */
  labelClass?: string;
  fields: Fields;
  onChange: (fields: Fields) => void;
  problem: string | null;
  children?: ComponentChildren;
}) {
  const { id, fields: f, problem } = props;
  const set = (change: Partial<Fields>) => props.onChange({ ...f, ...change });
  return (
    <>
      <label for={id}>
        <span class={props.labelClass}>Texto do motivo</span>
        <input
          id={id}
          type="text"
          maxLength={TEXT_MAX}
          value={f.descricao}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-erro` : undefined}
          onInput={(e) => set({ descricao: e.currentTarget.value })}
        />
        <FieldError id={`${id}-erro`} message={problem ?? undefined} />
      </label>
      <div class="mg-actions reason-flags">
        <label>
          <input type="checkbox" checked={f.exigeFoto} onChange={(e) => set({ exigeFoto: e.currentTarget.checked })} />
          Exige foto
        </label>
        <label>
          <input
            type="checkbox"
            checked={f.exigeObservacao}
            onChange={(e) => set({ exigeObservacao: e.currentTarget.checked })}
          />
          Exige observação
        </label>
        {props.children}
      </div>
    </>
  );
}

function ReasonRow(props: { reason: VisitReason; onSaved: (message: string) => void }) {
  const r = props.reason;
  const [fields, setFields] = useState<Fields>({
    descricao: r.descricao,
    exigeFoto: r.exigeFoto,
    exigeObservacao: r.exigeObservacao,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const patch = async (body: Partial<Fields> & { ativo?: boolean }) => {
    setBusy(true);
    setProblem(null);
    try {
      const saved = await api.PATCH('/visit-reasons/{id}', { params: { path: { id: r.id } }, body });
      props.onSaved(
        body.ativo === false
          ? `Motivo “${saved.descricao}” desativado.`
          : body.ativo === true
            ? `Motivo “${saved.descricao}” reativado.`
            : `Motivo “${saved.descricao}” salvo.`,
      );
    } catch (err) {
      setProblem(fieldMessages(err).descricao ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const changed =
    fields.descricao.trim() !== r.descricao ||
    fields.exigeFoto !== r.exigeFoto ||
    fields.exigeObservacao !== r.exigeObservacao;

  return (
    <article class={`mg-card reason-card${r.ativo ? '' : ' reason-off'}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void patch({ ...fields, descricao: fields.descricao.trim() });
        }}
        noValidate
        aria-label={`Motivo ${r.descricao}`}
      >
        <ReasonFields
          id={`motivo-${r.id}`}
          labelClass="reason-label"
          fields={fields}
          onChange={setFields}
          problem={problem}
        >
          {!r.ativo && <span class="mg-chip">Desativado</span>}
        </ReasonFields>
        <div class="mg-actions">
          <button type="submit" disabled={busy || !changed}>
            Salvar
          </button>
          <button type="button" class="secondary outline" disabled={busy} onClick={() => patch({ ativo: !r.ativo })}>
            {r.ativo ? 'Desativar' : 'Reativar'}
          </button>
        </div>
      </form>
    </article>
  );
}

const EMPTY: Fields = { descricao: '', exigeFoto: false, exigeObservacao: false };

function NewReason(props: { onSaved: (message: string) => void }) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (e: Event) => {
    e.preventDefault();
    if (fields.descricao.trim() === '') {
      setProblem('Escreva o motivo.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const saved = await api.POST('/visit-reasons', { body: { ...fields, descricao: fields.descricao.trim() } });
      setFields(EMPTY);
      props.onSaved(`Motivo “${saved.descricao}” incluído.`);
    } catch (err) {
      setProblem(fieldMessages(err).descricao ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="mg-card reason-new" onSubmit={add} noValidate aria-labelledby="motivo-novo-titulo">
      <h3 id="motivo-novo-titulo">Novo motivo</h3>
      <ReasonFields id="motivo-novo" fields={fields} onChange={setFields} problem={problem} />
      <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        Incluir motivo
      </button>
    </form>
  );
}

export function ReasonsView() {
  const list = useApi('/visit-reasons');
  const [message, setMessage] = useState<string | null>(null);
  const saved = (m: string) => {
    setMessage(m);
    list.reload();
  };
  return (
    <>
      <p class="mg-muted">
        O representante escolhe um destes motivos ao sair de uma visita sem pedido. Um motivo desativado some da lista
        do representante e continua nas visitas que o usaram.
      </p>
      {message && (
        <p role="status" class="mg-success">
          {message}
        </p>
      )}
      {list.error && (
        <p role="alert" class="error">
          {list.error}
        </p>
      )}
      {list.loading && !list.data && <p aria-busy="true">Carregando os motivos…</p>}
      {list.data && (
        <ul class="mg-list" aria-label="Motivos de não venda">
          {list.data.items.map((r) => (
            // Keyed by content too: a saved reason's form starts again from what the server holds.
            <li key={`${r.id} ${r.descricao} ${r.exigeFoto} ${r.exigeObservacao} ${r.ativo}`}>
              <ReasonRow reason={r} onSaved={saved} />
            </li>
          ))}
        </ul>
      )}
      <NewReason onSaved={saved} />
    </>
  );
}
