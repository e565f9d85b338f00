// The balances a supervisor (their team's) or a manager (every representative's) may see, and a
// representative's ledger, read from the API (GET /flex/balances, GET …/entries), paginated;
// a manager's adjustment (POST …/adjustments) with its reason.
import { formatBrl } from '@campo/shared/format';
import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { FieldError } from '../../kit/field-error.tsx';
import { dateTime } from '../../kit/format.ts';
import { Pager } from '../../kit/pager.tsx';
import { fieldMessages, useApi } from '../../kit/use-api.ts';
import { adjustmentAmount } from './amount.ts';
import { EntryList } from './ledger.tsx';

const PAGE_SIZE = 20;

export function TeamBalances() {
  const [page, setPage] = useState(1);
  const { data, error, loading } = useApi('/flex/balances', { params: { query: { page, pageSize: PAGE_SIZE } } });
  return (
    <section class="flex-screen" aria-labelledby="flex-titulo">
      <h1 id="flex-titulo">Saldo flex</h1>
      <p class="mg-muted">
        O saldo flex de cada representante: o que ganhou vendendo acima da tabela e pode usar para passar o teto de
        desconto.
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando os saldos…</p>}
      {data && data.items.length === 0 && <p>Nenhum representante para mostrar.</p>}
      {data && data.items.length > 0 && (
        <ul class="mg-list" aria-label="Saldos dos representantes">
          {data.items.map((b) => (
            <li key={b.codVendedor}>
              <a class="mg-card" href={`/flex/${b.codVendedor}`}>
                <span class="mg-row">
                  <strong>{b.nome || 'Representante sem nome'}</strong>
                  <strong>{formatBrl(b.saldo)}</strong>
                </span>
                <span class="mg-muted">
                  {b.ultimoMovimentoEm ? `Último movimento em ${dateTime(b.ultimoMovimentoEm)}` : 'Sem movimentos'}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}
    </section>
  );
}

function AdjustForm(props: { codVendedor: number; nome: string; onDone: (message: string) => void }) {
  const [valor, setValor] = useState('');
  const [motivo, setMotivo] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const v = adjustmentAmount(valor);
    const found: Record<string, string> = {};
    if (v === null) {
      found.valor = 'Informe um valor diferente de zero, com até duas casas decimais.';
    }
    if (motivo.trim() === '') found.motivo = 'Informe o motivo do ajuste.';
    setErrors(found);
    setProblem(null);
    if (v === null || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const done = await api.POST('/flex/balances/{codVendedor}/adjustments', {
        params: { path: { codVendedor: props.codVendedor } },
        body: { valor: v, motivo: motivo.trim() },
      });
      setValor('');
      setMotivo('');
      props.onDone(`Ajuste lançado. O saldo de ${props.nome} agora é ${formatBrl(done.saldo)}.`);
    } catch (err) {
      setErrors(fieldMessages(err));
      setProblem(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="flex-adjust" onSubmit={submit} noValidate aria-labelledby="ajuste-titulo">
      <h2 id="ajuste-titulo">Ajustar o saldo</h2>
      <label>
        Valor do ajuste (R$)
        <input
          type="text"
          inputMode="decimal"
          placeholder="Ex.: 150,00 ou -50,00"
          value={valor}
          aria-invalid={errors.valor ? true : undefined}
          aria-describedby={errors.valor ? 'ajuste-valor-ajuda ajuste-valor-erro' : 'ajuste-valor-ajuda'}
          onInput={(e) => setValor(e.currentTarget.value)}
        />
        <small id="ajuste-valor-ajuda">Positivo credita; negativo (com o sinal de menos) debita.</small>
        <FieldError id="ajuste-valor-erro" message={errors.valor} />
      </label>
      <label>
        Motivo
        <input
          type="text"
          maxLength={500}
          value={motivo}
          aria-invalid={errors.motivo ? true : undefined}
          aria-describedby={errors.motivo ? 'ajuste-motivo-erro' : undefined}
          onInput={(e) => setMotivo(e.currentTarget.value)}
        />
        <FieldError id="ajuste-motivo-erro" message={errors.motivo} />
      </label>
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
      <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        Lançar ajuste
      </button>
    </form>
  );
}

export function RepLedger(props: { codVendedor: number; canAdjust: boolean }) {
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const { data, error, loading, reload } = useApi('/flex/balances/{codVendedor}/entries', {
    params: { path: { codVendedor: props.codVendedor }, query: { page, pageSize: PAGE_SIZE } },
  });
  return (
    <section class="flex-screen" aria-labelledby="flex-titulo">
      <p>
        <a href="/flex">← Todos os saldos</a>
      </p>
      <h1 id="flex-titulo">Saldo flex{data ? ` de ${data.nome}` : ''}</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando o saldo…</p>}
      {data && (
        <>
          <p class="flex-figure">
            <span>Saldo disponível</span>
            <strong>{formatBrl(data.saldo)}</strong>
          </p>
          {message && (
            <p role="status" class="mg-success">
              {message}
            </p>
          )}
          {props.canAdjust && (
            <AdjustForm
              codVendedor={props.codVendedor}
              nome={data.nome}
              onDone={(m) => {
                setMessage(m);
                setPage(1);
                reload();
              }}
            />
          )}
          <h2>Movimentos</h2>
          <EntryList entries={data.items} label={`Movimentos do saldo flex de ${data.nome}`} />
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
