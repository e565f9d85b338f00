// Create or edit an opportunity. Everything is a local write through the outbox, so it works
// with no signal; what was typed stays on screen when something is refused.
import { FUNNEL_STAGES, type FunnelStage, type SyncRefusal, ZOpportunityCreate } from '@campo/shared';
import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import type { OpportunityDoc } from '../../db/schemas.ts';
import { DateField, dateProblem } from '../../kit/date-field.tsx';
import { moneyInput, parseMoney, STAGE_LABELS } from './format.ts';
import { RefusalNotice } from './refusal.tsx';

interface Fields {
  nomeProspect: string;
  empresaProspect: string;
  valor: string;
  previsaoFechamento: string;
  observacoes: string;
  estagio: FunnelStage;
  motivoPerda: string;
}

type FieldName = keyof Fields;
type Errors = Partial<Record<FieldName | 'form', string>>;

const LABELS: Record<FieldName, string> = {
  nomeProspect: 'Nome do prospect',
  empresaProspect: 'Empresa',
  valor: 'Valor previsto (R$)',
  previsaoFechamento: 'Previsão de fechamento',
  observacoes: 'Observações',
  estagio: 'Etapa',
  motivoPerda: 'Motivo da perda',
};

/**
 * The form's starting values: the card, or, for an edit the server refused, the values the
 * representative had sent (recusa.campos) over the server's card, so "Corrigir" starts from
 * what they typed.
 */
function fieldsOf(card: OpportunityDoc | null): Fields {
  const sent = (card?.recusa as SyncRefusal | null | undefined)?.campos;
  const o = card && sent ? ({ ...card, ...sent } as OpportunityDoc) : card;
  return {
    nomeProspect: o?.nomeProspect ?? '',
    empresaProspect: o?.empresaProspect ?? '',
    valor: moneyInput(o?.valor ?? null),
    previsaoFechamento: o?.previsaoFechamento ?? '',
    observacoes: o?.observacoes ?? '',
    estagio: (o?.estagio as FunnelStage | undefined) ?? 'lead',
    motivoPerda: o?.motivoPerda ?? '',
  };
}

export interface OpportunityValues {
  nomeProspect: string | null;
  empresaProspect: string | null;
  valor: number | null;
  previsaoFechamento: string | null;
  observacoes: string | null;
  estagio: FunnelStage;
  motivoPerda: string | null;
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** Checks with the same zod contract the server uses, and says what is wrong per field. */
function validate(f: Fields, idCliente: number | null): { values: OpportunityValues } | { errors: Errors } {
  const errors: Errors = {};
  const money = parseMoney(f.valor);
  if (!money.ok) errors.valor = 'Valor inválido: use só números, como 1.500,00.';
  const previsao = dateProblem(f.previsaoFechamento.trim());
  if (previsao) errors.previsaoFechamento = previsao;
  const values: OpportunityValues = {
    nomeProspect: orNull(f.nomeProspect),
    empresaProspect: orNull(f.empresaProspect),
    valor: money.ok ? money.value : null,
    previsaoFechamento: orNull(f.previsaoFechamento),
    observacoes: orNull(f.observacoes),
    estagio: f.estagio,
    motivoPerda: f.estagio === 'perdido' ? orNull(f.motivoPerda) : null,
  };
  if (idCliente === null && !values.nomeProspect) errors.nomeProspect = 'Informe o nome do prospect.';
  if (values.estagio === 'perdido' && !values.motivoPerda) errors.motivoPerda = 'Informe o motivo da perda.';
  const parsed = ZOpportunityCreate.safeParse({
    id: crypto.randomUUID(),
    ...values,
    idCliente,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as FieldName | undefined;
      if (field && field in LABELS && !errors[field]) errors[field] = `${LABELS[field]}: ${issue.message}.`;
    }
  }
  return Object.keys(errors).length ? { errors } : { values };
}

export function OpportunityForm(props: {
  item: OpportunityDoc | null;
  onSave: (values: OpportunityValues) => Promise<void>;
  onDelete?: () => Promise<void>;
}) {
  const { route } = useLocation();
  const fields = useSignal<Fields>(fieldsOf(props.item));
  const errors = useSignal<Errors>({});
  const busy = useSignal(false);
  const confirmDelete = useSignal(false);
  const isClient = props.item?.idCliente != null;
  const editing = props.item !== null;

  const set = (name: FieldName) => (e: Event) => {
    const target = e.currentTarget as HTMLInputElement;
    fields.value = { ...fields.value, [name]: target.value };
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const result = validate(fields.value, props.item?.idCliente ?? null);
    if ('errors' in result) {
      errors.value = result.errors;
      const first = Object.keys(result.errors)[0];
      document.getElementById(`op-${first}`)?.focus();
      return;
    }
    errors.value = {};
    busy.value = true;
    try {
      await props.onSave(result.values);
      route('/funil');
    } catch (err) {
      errors.value = { form: err instanceof Error ? err.message : 'Não foi possível salvar. Tente de novo.' };
      busy.value = false;
    }
  };

  const remove = async () => {
    if (!props.onDelete) return;
    busy.value = true;
    try {
      await props.onDelete();
      route('/funil');
    } catch (err) {
      errors.value = { form: err instanceof Error ? err.message : 'Não foi possível excluir. Tente de novo.' };
      busy.value = false;
    }
  };

  const input = (name: FieldName, extra: Record<string, unknown> = {}) => {
    const err = errors.value[name];
    return (
      <label>
        {LABELS[name]}
        <input
          id={`op-${name}`}
          name={name}
          value={fields.value[name]}
          onInput={set(name)}
          aria-invalid={err ? 'true' : undefined}
          aria-describedby={err ? `op-${name}-erro` : undefined}
          {...extra}
        />
        {err && (
          <small id={`op-${name}-erro`} class="field-error">
            {err}
          </small>
        )}
      </label>
    );
  };

  return (
    <form class="opp-form" onSubmit={submit} noValidate>
      {props.item && <RefusalNotice item={props.item} showFix={false} />}
      {isClient ? (
        <p>
          Cliente: <strong>{props.item?.nomeCliente ?? `#${props.item?.idCliente}`}</strong>
        </p>
      ) : (
        input('nomeProspect', { required: true, maxLength: 200, autoComplete: 'off' })
      )}
      {input('empresaProspect', { maxLength: 200, autoComplete: 'organization' })}
      {input('valor', { inputMode: 'decimal', placeholder: '0,00', autoComplete: 'off' })}
      <label htmlFor="op-previsaoFechamento">
        {LABELS.previsaoFechamento}
        <DateField
          id="op-previsaoFechamento"
          name="previsaoFechamento"
          value={fields.value.previsaoFechamento}
          onChange={(v) => {
            fields.value = { ...fields.value, previsaoFechamento: v };
          }}
          aria-invalid={errors.value.previsaoFechamento ? 'true' : undefined}
          aria-describedby={errors.value.previsaoFechamento ? 'op-previsaoFechamento-erro' : undefined}
        />
        {errors.value.previsaoFechamento && (
          <small id="op-previsaoFechamento-erro" class="field-error">
            {errors.value.previsaoFechamento}
          </small>
        )}
      </label>
      <label>
        {LABELS.estagio}
        <select id="op-estagio" name="estagio" value={fields.value.estagio} onChange={set('estagio')}>
          {FUNNEL_STAGES.map((s) => (
            <option key={s} value={s}>
              {STAGE_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {fields.value.estagio === 'perdido' && (
        <label>
          {LABELS.motivoPerda}
          <textarea
            id="op-motivoPerda"
            name="motivoPerda"
            rows={2}
            maxLength={500}
            value={fields.value.motivoPerda}
            onInput={set('motivoPerda')}
            aria-invalid={errors.value.motivoPerda ? 'true' : undefined}
            aria-describedby={errors.value.motivoPerda ? 'op-motivoPerda-erro' : undefined}
          />
          {errors.value.motivoPerda && (
            <small id="op-motivoPerda-erro" class="field-error">
              {errors.value.motivoPerda}
            </small>
          )}
        </label>
      )}
      <label>
        {LABELS.observacoes}
        <textarea
          id="op-observacoes"
          name="observacoes"
          rows={3}
          maxLength={4000}
          value={fields.value.observacoes}
          onInput={set('observacoes')}
        />
      </label>
      {errors.value.form && (
        <p class="field-error" role="alert">
          {errors.value.form}
        </p>
      )}
      {Object.keys(errors.value).length > 0 && !errors.value.form && (
        <p class="field-error" role="alert">
          Corrija os campos marcados.
        </p>
      )}
      <div class="form-actions">
        <a href="/funil" class="link-button secondary">
          Voltar
        </a>
        <button type="submit" disabled={busy.value} aria-busy={busy.value ? 'true' : undefined}>
          {editing ? 'Salvar alterações' : 'Criar oportunidade'}
        </button>
      </div>
      {props.onDelete && (
        <div class="danger-zone">
          {confirmDelete.value ? (
            <>
              <p>Excluir esta oportunidade? Não dá para desfazer.</p>
              <div class="form-actions">
                <button type="button" class="secondary" onClick={() => (confirmDelete.value = false)}>
                  Não excluir
                </button>
                <button type="button" class="danger" onClick={() => void remove()} disabled={busy.value}>
                  Sim, excluir
                </button>
              </div>
            </>
          ) : (
            <button type="button" class="outline danger" onClick={() => (confirmDelete.value = true)}>
              Excluir oportunidade
            </button>
          )}
        </div>
      )}
    </form>
  );
}
