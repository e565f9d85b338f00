// The rule editor. Choosing several pautas creates one rule per pauta in one request (all or
// none); none chosen is one rule for every pauta. The API answers the existing rules each new
// one overlaps: the highest percent wins on a line, so the manager is warned, not stopped.
// With `editId` it changes one rule in place (PUT: one pauta or all); with `copyId` it starts
// a new rule from an existing one.
import type { PolicyRule, PolicyRuleCreated, PolicyRuleUpdated } from '@campo/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { DateField, dateProblem, isIsoDate } from '../../kit/date-field.tsx';
import { FieldError } from '../../kit/field-error.tsx';
import { day, pct, today } from '../../kit/format.ts';
import { fieldMessages, useApi } from '../../kit/use-api.ts';
import { pautaName, repName, useLookups } from './lookups.ts';

interface Form {
  descricao: string;
  percent: string;
  promocao: boolean;
  grupo: string;
  subgrupo: string;
  representante: string;
  idPautas: number[];
  vigenciaInicio: string;
  vigenciaFim: string;
}

const empty = (): Form => ({
  descricao: '',
  percent: '',
  promocao: false,
  grupo: '',
  subgrupo: '',
  representante: '',
  idPautas: [],
  vigenciaInicio: today(),
  vigenciaFim: today(),
});

/** The form filled from a saved rule; a copy is told apart by its description. */
const fromRule = (r: PolicyRule, copy: boolean): Form => ({
  descricao: copy ? `${r.descricao} (cópia)` : r.descricao,
  percent: String(r.percent).replace('.', ','),
  promocao: r.promocao,
  grupo: r.grupo === null ? '' : String(r.grupo),
  subgrupo: r.subgrupo === null ? '' : String(r.subgrupo),
  representante: r.representante === null ? '' : String(r.representante),
  idPautas: r.idPauta === null ? [] : [r.idPauta],
  vigenciaInicio: r.vigenciaInicio,
  vigenciaFim: r.vigenciaFim ?? r.vigenciaInicio,
});

/** A decimal typed the Brazilian way ("7,5") or with a dot. */
const parsePercent = (s: string) => Number(s.replace(',', '.').trim());

interface RuleBrief {
  id: number;
  descricao: string;
  percent: number;
  vigenciaInicio: string;
  vigenciaFim: string | null;
}

/** A saved rule in one line, its pauta by name (the number only until the names arrive). */
function RuleSummary(props: {
  rule: RuleBrief & { idPauta: number | null };
  pautas: { idPauta: number; descricao: string | null }[];
}) {
  const r = props.rule;
  const pauta = props.pautas.find((p) => p.idPauta === r.idPauta);
  const where = r.idPauta === null ? 'todas as pautas' : pauta ? pautaName(pauta) : `pauta ${r.idPauta}`;
  return (
    <>
      <strong>{r.descricao}</strong> — {pct(r.percent)} · {where} · {day(r.vigenciaInicio)} a {day(r.vigenciaFim)}
    </>
  );
}

/** The rules a save found reaching the same items on some day: the highest percent wins per item. */
function OverlapNotice(props: { rules: RuleBrief[] }) {
  if (props.rules.length === 0) return null;
  return (
    <div role="alert" class="notice overlap">
      <p>
        <strong>Atenção: sobreposição.</strong> Estas regras já alcançam os mesmos itens em algum dia da vigência. Num
        item, vale o maior percentual.
      </p>
      <ul>
        {props.rules.map((o, i) => (
          <li key={`${o.id}-${i}`}>
            {o.descricao} — {pct(o.percent)} ({day(o.vigenciaInicio)} a {day(o.vigenciaFim)})
          </li>
        ))}
      </ul>
    </div>
  );
}

export function RuleEditor(props: { editId?: number; copyId?: number }) {
  const { groups, reps, pautas, error: lookupError } = useLookups();
  const sourceId = props.editId ?? props.copyId ?? null;
  const source = useApi(sourceId === null ? null : '/politicas/regras/{id}', {
    params: { path: { id: sourceId ?? 0 } },
  });
  const editing = props.editId !== undefined;
  const [form, setForm] = useState<Form>(empty);
  const [loaded, setLoaded] = useState(sourceId === null);
  const [saved, setSaved] = useState<PolicyRuleUpdated | null>(null);
  useEffect(() => {
    if (!source.data || loaded) return;
    setForm(fromRule(source.data, !editing));
    setLoaded(true);
  }, [source.data, loaded, editing]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<PolicyRuleCreated | null>(null);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const subgroups = groups.find((g) => String(g.codGrupo) === form.grupo)?.subgrupos ?? [];

  const submit = async (e: Event) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    const percent = parsePercent(form.percent);
    if (!form.descricao.trim()) local.descricao = 'informe a descrição';
    if (!Number.isFinite(percent) || percent <= 0 || percent > 100)
      local.percent = 'informe um percentual maior que 0 e até 100';
    for (const field of ['vigenciaInicio', 'vigenciaFim'] as const) {
      if (!isIsoDate(form[field])) local[field] = dateProblem(form[field]) ?? 'informe a data (dd/mm/aaaa)';
    }
    if (!local.vigenciaInicio && !local.vigenciaFim && form.vigenciaFim < form.vigenciaInicio)
      local.vigenciaFim = 'o fim da vigência não pode ser antes do início';
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const body = {
        descricao: form.descricao.trim(),
        percent,
        promocao: form.promocao,
        grupo: form.grupo ? Number(form.grupo) : null,
        subgrupo: form.subgrupo ? Number(form.subgrupo) : null,
        representante: form.representante ? Number(form.representante) : null,
        idPautas: form.idPautas,
        vigenciaInicio: form.vigenciaInicio,
        vigenciaFim: form.vigenciaFim,
      };
      if (editing) {
        const { idPautas, ...rest } = body;
        setSaved(
          await api.PUT('/politicas/regras/{id}', {
            params: { path: { id: props.editId ?? 0 } },
            body: { ...rest, idPauta: idPautas[0] ?? null },
          }),
        );
      } else {
        setCreated(await api.POST('/politicas/regras', { body }));
      }
    } catch (err) {
      // The form keeps everything typed; the API names each bad field.
      const fields = fieldMessages(err);
      setErrors(fields);
      setFormError(Object.keys(fields).length ? 'Corrija os campos marcados.' : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  if (saved) {
    const r = saved.item;
    return (
      <section aria-labelledby="regra-salva">
        <h1 id="regra-salva">Regra salva</h1>
        <p class="mg-card">
          <RuleSummary rule={r} pautas={pautas} />
        </p>
        <OverlapNotice rules={saved.overlaps} />
        <div class="mg-actions">
          <a href="/regras" class="mg-button">
            Ver regras
          </a>
        </div>
      </section>
    );
  }

  if (sourceId !== null && !loaded) {
    return source.error ? (
      <p role="alert" class="error">
        {source.error}
      </p>
    ) : (
      <p aria-busy="true">Carregando a regra…</p>
    );
  }

  if (created) {
    const n = created.items.length;
    return (
      <section aria-labelledby="regra-criada">
        <h1 id="regra-criada">{n === 1 ? 'Regra criada' : `${n} regras criadas`}</h1>
        <ul class="mg-list">
          {created.items.map((r) => (
            <li key={r.id} class="mg-card">
              <RuleSummary rule={r} pautas={pautas} />
            </li>
          ))}
        </ul>
        <OverlapNotice rules={created.overlaps.flatMap((o) => o.overlapping)} />
        <div class="mg-actions">
          <a href="/regras" class="mg-button">
            Ver regras
          </a>
          <button
            type="button"
            class="secondary outline"
            onClick={() => {
              setCreated(null);
              setForm(empty());
            }}
          >
            Criar outra
          </button>
        </div>
      </section>
    );
  }

  const invalid = (key: string) => (errors[key] ? { 'aria-invalid': true, 'aria-describedby': `erro-${key}` } : {});

  return (
    <section aria-labelledby="nova-regra">
      <p>
        <a href="/regras">← Regras</a>
      </p>
      <h1 id="nova-regra">{editing ? 'Editar regra de desconto' : 'Nova regra de desconto'}</h1>
      {lookupError && (
        <p role="alert" class="error">
          {lookupError}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label>
          Descrição
          <input
            value={form.descricao}
            maxLength={200}
            onInput={(e) => set('descricao', e.currentTarget.value)}
            {...invalid('descricao')}
          />
          <FieldError id="erro-descricao" message={errors.descricao} />
        </label>
        <div class="grid">
          <label>
            Percentual de desconto
            <input
              inputMode="decimal"
              value={form.percent}
              placeholder="Ex.: 7,5"
              onInput={(e) => set('percent', e.currentTarget.value)}
              {...invalid('percent')}
            />
            <FieldError id="erro-percent" message={errors.percent} />
          </label>
          <label class="check-inline">
            <input type="checkbox" checked={form.promocao} onChange={(e) => set('promocao', e.currentTarget.checked)} />
            Promoção (selo no catálogo)
          </label>
        </div>
        <fieldset>
          <legend>Alcance</legend>
          <label>
            Grupo de produtos
            <select
              value={form.grupo}
              onChange={(e) => setForm((f) => ({ ...f, grupo: e.currentTarget.value, subgrupo: '' }))}
              {...invalid('grupo')}
            >
              <option value="">Todos os grupos</option>
              {groups.map((g) => (
                <option key={g.codGrupo} value={g.codGrupo}>
                  {g.descricao} ({g.codGrupo})
                </option>
              ))}
            </select>
            <FieldError id="erro-grupo" message={errors.grupo} />
          </label>
          <label>
            Subgrupo
            <select
              value={form.subgrupo}
              disabled={!form.grupo}
              onChange={(e) => set('subgrupo', e.currentTarget.value)}
              {...invalid('subgrupo')}
            >
              <option value="">Todos os subgrupos</option>
              {subgroups.map((s) => (
                <option key={s.codSubgrupo} value={s.codSubgrupo}>
                  {s.descricao} ({s.codSubgrupo})
                </option>
              ))}
            </select>
            <FieldError id="erro-subgrupo" message={errors.subgrupo} />
          </label>
          <label>
            Representante
            <select
              value={form.representante}
              onChange={(e) => set('representante', e.currentTarget.value)}
              {...invalid('representante')}
            >
              <option value="">Todos os representantes</option>
              {reps.map((r) => (
                <option key={r.codVendedor} value={r.codVendedor}>
                  {repName(r)}
                </option>
              ))}
            </select>
            <FieldError id="erro-representante" message={errors.representante} />
          </label>
        </fieldset>
        <fieldset class="pautas" aria-describedby="pautas-ajuda">
          <legend>Pautas</legend>
          <small id="pautas-ajuda">
            {editing
              ? 'Uma regra vale para uma pauta, ou para todas sem nenhuma marcada.'
              : 'Uma regra é criada para cada pauta marcada. Sem nenhuma marcada, a regra vale para todas as pautas.'}
          </small>
          {pautas.map((p) => (
            <label key={p.idPauta}>
              <input
                type="checkbox"
                checked={form.idPautas.includes(p.idPauta)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setForm((f) => ({
                    ...f,
                    // Editing changes one rule, which has one pauta: marking another replaces it.
                    idPautas: on
                      ? editing
                        ? [p.idPauta]
                        : [...f.idPautas, p.idPauta]
                      : f.idPautas.filter((id) => id !== p.idPauta),
                  }));
                }}
              />
              {pautaName(p)}
              {!p.ativo && ' — inativa'}
            </label>
          ))}
          <FieldError id="erro-idPautas" message={errors.idPautas} />
        </fieldset>
        <div class="grid">
          <label htmlFor="regra-vigenciaInicio">
            Início da vigência
            <DateField
              id="regra-vigenciaInicio"
              value={form.vigenciaInicio}
              onChange={(v) => set('vigenciaInicio', v)}
              {...invalid('vigenciaInicio')}
            />
            <FieldError id="erro-vigenciaInicio" message={errors.vigenciaInicio} />
          </label>
          <label htmlFor="regra-vigenciaFim">
            Fim da vigência
            <DateField
              id="regra-vigenciaFim"
              value={form.vigenciaFim}
              onChange={(v) => set('vigenciaFim', v)}
              {...invalid('vigenciaFim')}
            />
            <FieldError id="erro-vigenciaFim" message={errors.vigenciaFim} />
          </label>
        </div>
        {formError && (
          <p role="alert" class="error">
            {formError}
          </p>
        )}
        <button type="submit" aria-busy={busy ? 'true' : undefined} disabled={busy}>
          {editing ? 'Salvar regra' : form.idPautas.length > 1 ? `Criar ${form.idPautas.length} regras` : 'Criar regra'}
        </button>
      </form>
    </section>
  );
}
