// The month's targets as an editable table per team. Only the rows changed are sent (an empty
// field removes the target); on an error nothing typed is lost, and the rows the API names
// are marked.

import type { TargetsPage } from '@campo/shared';
import { plural } from '@campo/shared/format';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, errorMessage } from '../../api.ts';
import { brl, today } from '../../kit/format.ts';
import { MonthPicker } from '../../kit/month-picker.tsx';
import { useApi } from '../../kit/use-api.ts';
import { parseMoney, show } from './money.ts';

export function TargetsEditor(props: { mes?: string }) {
  const { route } = useLocation();
  const mes = props.mes ?? today().slice(0, 7);
  const targets = useApi('/metas/{mes}', { params: { path: { mes } } });
  const sups = useApi('/supervisores');
  const [edits, setEdits] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'copy' | null>(null);

  // Another month is another table: what was typed for the previous one does not carry over.
  useEffect(() => {
    setEdits({});
    setMessage(null);
    setError(null);
  }, [mes]);

  const teams = useMemo(() => {
    const names = new Map((sups.data?.items ?? []).map((s) => [s.codSupervisor, s.nome]));
    const groups = new Map<number | null, TargetsPage['items']>();
    for (const item of targets.data?.items ?? []) {
      const list = groups.get(item.codSupervisor) ?? [];
      list.push(item);
      groups.set(item.codSupervisor, list);
    }
    return [...groups.entries()].map(([cod, items]) => ({
      cod,
      name: cod === null ? 'Sem supervisor' : (names.get(cod) ?? `Supervisor ${cod}`),
      items,
    }));
  }, [targets.data, sups.data]);

  const changed = Object.entries(edits).filter(([cod, text]) => {
    const original = targets.data?.items.find((i) => i.codVendedor === Number(cod))?.valorMeta ?? null;
    const parsed = parseMoney(text);
    return Number.isNaN(parsed) || parsed !== original;
  });
  const invalid = new Set(changed.filter(([, text]) => Number.isNaN(parseMoney(text))).map(([cod]) => Number(cod)));

  const save = async (e: Event) => {
    e.preventDefault();
    setMessage(null);
    if (invalid.size) {
      setError('Há valores inválidos: use números como 15000 ou 15.000,00.');
      return;
    }
    if (changed.length === 0) {
      setError('Nada foi alterado.');
      return;
    }
    setBusy('save');
    setError(null);
    try {
      const metas = changed.map(([cod, text]) => ({ codVendedor: Number(cod), valorMeta: parseMoney(text) }));
      await api.PUT('/metas/{mes}', { params: { path: { mes } }, body: { metas } });
      setEdits({});
      targets.reload();
      setMessage(plural(changed.length, 'meta salva.', 'metas salvas.'));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    setBusy('copy');
    setError(null);
    setMessage(null);
    try {
      const r = await api.POST('/metas/{mes}/copiar-anterior', { params: { path: { mes } } });
      targets.reload();
      setMessage(
        `${plural(r.copiadas, 'meta copiada', 'metas copiadas')} do mês anterior; ${plural(r.mantidas, 'representante já tinha meta e foi mantido', 'representantes já tinham meta e foram mantidos')}.`,
      );
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="metas-titulo">
      <h1 id="metas-titulo">Metas</h1>
      <div class="metas-bar">
        <MonthPicker value={mes} onChange={(v) => route(`/metas?mes=${v}`)} />
        <button
          type="button"
          class="secondary outline"
          disabled={busy !== null}
          aria-busy={busy === 'copy' ? 'true' : undefined}
          onClick={() => void copy()}
        >
          Copiar mês anterior
        </button>
      </div>
      {targets.error && (
        <p role="alert" class="error">
          {targets.error}
        </p>
      )}
      {!targets.data && !targets.error && <p aria-busy="true">Carregando metas…</p>}
      <form onSubmit={save} noValidate>
        {teams.map((team) => (
          <div class="mg-scroll" key={team.cod ?? 'none'}>
            <table>
              <caption>
                <strong>{team.name}</strong>
              </caption>
              <thead>
                <tr>
                  <th scope="col">Representante</th>
                  <th scope="col" class="mg-num">
                    Meta do mês (R$)
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.items.map((i) => {
                  const text = edits[i.codVendedor] ?? show(i.valorMeta);
                  const bad = invalid.has(i.codVendedor);
                  return (
                    <tr key={i.codVendedor}>
                      <th scope="row">
                        <label for={`meta-${i.codVendedor}`}>{i.nome}</label>
                        <br />
                        <small class="mg-muted">
                          {i.codVendedor}
                          {i.valorMeta !== null && ` · atual ${brl(i.valorMeta)}`}
                        </small>
                      </th>
                      <td class="mg-num">
                        <input
                          id={`meta-${i.codVendedor}`}
                          class="meta-input"
                          inputMode="decimal"
                          value={text}
                          placeholder="sem meta"
                          aria-invalid={bad ? true : undefined}
                          onInput={(e) => {
                            const v = e.currentTarget.value;
                            setEdits((m) => ({ ...m, [i.codVendedor]: v }));
                          }}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ))}
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {message && (
          <p role="status" class="mg-success">
            {message}
          </p>
        )}
        {teams.length > 0 && (
          <button type="submit" disabled={busy !== null} aria-busy={busy === 'save' ? 'true' : undefined}>
            Salvar metas{changed.length > 0 ? ` (${changed.length})` : ''}
          </button>
        )}
      </form>
    </section>
  );
}
